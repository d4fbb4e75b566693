import type { Harness } from '../../test/harness'
import { pngBytes } from '../../test/png'

/**
 * Fixtures for the process and bom tests. Products are inserted directly (the products service
 * is another domain); operations, fields and media go through the admin API like the screens.
 */
export async function insertProduct(h: Harness, code: string, opts: { active?: boolean; trashed?: boolean; description?: string } = {}) {
  const row = await h.svc.db
    .insertInto('products')
    .values({
      code,
      description: opts.description ?? `Prodotto ${code}`,
      active: opts.active ?? true,
      trashed_at: opts.trashed ? h.clock.now() : null,
      metadata: '[]',
      print_templates: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function createField(h: Harness, token: string, name: string, opts: { type?: string; mandatory?: boolean } = {}) {
  const res = await h.request('POST', '/api/field', { token, body: { name, type: opts.type ?? 'text', mandatory: opts.mandatory ?? false } })
  if (res.status !== 201) throw new Error(`field ${name}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.detail._key as string
}

export async function uploadImage(h: Harness, token: string, name = 'schema.png') {
  const form = new FormData()
  form.append('file', new File([new Uint8Array(pngBytes(3, 3))], name, { type: 'image/png' }))
  const res = await h.request('POST', '/api/media/create', { token, body: form })
  if (res.status !== 201) throw new Error(`media ${name}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.detail._key as string
}

export async function createOperation(h: Harness, token: string, name: string, steps: unknown[] = []) {
  const res = await h.request('POST', '/api/operation', { token, body: { name, default_phase_steps: steps } })
  if (res.status !== 201) throw new Error(`operation ${name}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.detail as { _key: string; default_phase_steps: { _key: string }[] }
}

export async function createDepartment(h: Harness, token: string, code: string) {
  const res = await h.request('POST', '/api/department', { token, body: { code, name: `Reparto ${code}` } })
  if (res.status !== 201) throw new Error(`department ${code}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.detail._key as string
}

export const eventsOf = (h: Harness, type: string) =>
  h.svc.db.selectFrom('events').selectAll().where('event_type', '=', type).orderBy('id').execute()
