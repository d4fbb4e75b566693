import { Trans, useLingui } from '@lingui/react/macro'
import { Button } from '@mantine/core'
import { useState } from 'react'
import { ApiError } from '../../lib/api-error'
import { notifyError } from '../../lib/notify'
import { download } from '../reports/csv'

/**
 * "Registro di produzione": downloads the device history record of a work order or a serial as
 * a PDF in the user's language. Fetched first, so a refusal (unknown serial, a serial made
 * outside a work order) shows as a translated message instead of a downloaded error.
 */
export function HistoryRecordButton({ subject, subjectKey, compact = false }: { subject: 'work-order' | 'serial'; subjectKey: string; compact?: boolean }) {
  const { i18n } = useLingui()
  const [busy, setBusy] = useState(false)
  async function fetchAndSave() {
    setBusy(true)
    try {
      const lang = i18n.locale.startsWith('en') ? 'en' : 'it'
      const res = await fetch(`/api/${subject}/${encodeURIComponent(subjectKey)}/history-record.pdf?lang=${lang}`)
      if (!res.ok) {
        const detail = ((await res.json().catch(() => ({}))) as { detail?: { code?: string; message?: string } }).detail
        throw new ApiError(res.status, detail?.code ?? 'INTERNAL', detail?.message ?? res.statusText)
      }
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'record.pdf'
      download(name, await res.blob())
    } catch (e) {
      notifyError(e instanceof TypeError ? new ApiError(0, 'NETWORK', e.message) : e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button variant={compact ? 'subtle' : 'default'} size={compact ? 'compact-xs' : 'sm'} loading={busy} onClick={() => void fetchAndSave()} data-testid="history-record-download">
      <Trans>Registro di produzione</Trans>
    </Button>
  )
}
