import { useState } from 'react'

/** A code field's value: the entity the typed or scanned code names. */
export type Picked = { _key: string; code: string; description: string }

export type ScanResult = { ok: true; value: Picked | null } | { ok: false }

/**
 * The code fields of one form. A click on the submit button leaves a field whose code was typed
 * without Enter: its lookup may still be running, and the form's state does not hold it yet.
 * `settle()` reads every field as it is now (waiting for a running lookup) and hands back the
 * values by field name, or null when a typed code matches nothing (the field says so), so the
 * form submits what was typed or refuses with the reason, never without it.
 */
export class ScanGroup {
  private readonly fields = new Map<string, () => Promise<ScanResult>>()

  add(name: string, read: () => Promise<ScanResult>): () => void {
    this.fields.set(name, read)
    return () => {
      if (this.fields.get(name) === read) this.fields.delete(name)
    }
  }

  async settle(): Promise<Record<string, Picked | null> | null> {
    const entries = [...this.fields.entries()]
    const results = await Promise.all(entries.map(([, read]) => read()))
    const values: Record<string, Picked | null> = {}
    for (const [i, r] of results.entries()) {
      if (!r.ok) return null
      values[entries[i]![0]] = r.value
    }
    return values
  }
}

export function useScanGroup(): ScanGroup {
  return useState(() => new ScanGroup())[0]
}
