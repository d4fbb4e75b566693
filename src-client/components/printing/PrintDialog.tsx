import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Anchor, Button, Checkbox, Group, Modal, Select, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { PrintRow } from '../../../src/domains/printing/schemas'
import { toApiError } from '../../lib/api-error'
import { errorMessage } from '../../lib/error-messages'
import { notifyError, notifySuccess } from '../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../lib/trpc'
import type { PrintSource } from './print-button-props'

/** The print dialog (its own chunk: loaded when someone prints). */
export default function PrintDialog({ source, onClose }: { source: PrintSource; onClose: () => void }) {
  const { t } = useLingui()
  const templated = 'context' in source ? source : null
  const perSerial = templated?.perSerial
  const templates = useQuery({ ...trpc.printTemplates.list.queryOptions({ context: templated?.context ?? '', context_key: templated?.contextKey ?? '' }), enabled: templated !== null })
  const printers = useQuery(trpc.printers.list.queryOptions({}))
  const myDefault = useQuery(trpc.printers.myDefault.queryOptions())
  const [template, setTemplate] = useState<string | null>(null)
  const [printer, setPrinter] = useState<string | null>(null)
  const [makeDefault, setMakeDefault] = useState(false)
  const [oneEach, setOneEach] = useState(Boolean(perSerial))
  const [busy, setBusy] = useState(false)
  const [last, setLast] = useState<{ pdf_url: string; error?: string; printed?: string } | null>(null)

  useEffect(() => {
    if (template === null && templates.data?.length) setTemplate(templates.data[0]!._key)
  }, [templates.data, template])
  useEffect(() => {
    if (printer === null && myDefault.data) setPrinter(myDefault.data._key)
  }, [myDefault.data, printer])

  const ready = templated === null || template !== null
  const run = async (send: boolean) => {
    if (!ready) return
    setBusy(true)
    setLast(null)
    try {
      if (send && makeDefault && printer && printer !== myDefault.data?._key) {
        try {
          await trpcClient.printers.setDefault.mutate({ printer_key: printer })
          void queryClient.invalidateQueries({ queryKey: trpc.printers.myDefault.queryKey() })
        } catch (e) {
          notifyError(e)
        }
      }
      const printerKey = send ? printer : null
      const row: PrintRow =
        'document' in source
          ? await source.document(printerKey)
          : await trpcClient.prints.print.mutate({
              ...source.subject,
              per_serial: perSerial ? oneEach : undefined,
              template_key: template!,
              printer_key: printerKey,
              app_url: window.location.origin,
            })
      if (send) {
        notifySuccess(t`Inviato alla stampante ${row.printer_name ?? ''}`)
        setLast({ pdf_url: row.pdf_url, printed: row.printer_name ?? '' })
      } else {
        setLast({ pdf_url: row.pdf_url })
        window.open(row.pdf_url, '_blank', 'noopener')
      }
    } catch (e) {
      const err = toApiError(e)
      if (typeof err.extra.pdf_url === 'string') setLast({ pdf_url: err.extra.pdf_url, error: errorMessage(err) })
      else notifyError(e)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal opened onClose={onClose} title={<Trans>Stampa</Trans>} size="lg">
      <Stack>
        {templates.data && templates.data.length === 0 && (
          <Text c="dimmed" data-testid="print-no-templates">
            <Trans>Nessun modello di stampa assegnato qui. L'amministratore li assegna in Impostazioni › Generale › Modelli di stampa.</Trans>
          </Text>
        )}
        {templates.data && templates.data.length > 0 && (
          <Select
            label={<Trans>Modello</Trans>}
            data={templates.data.map((tpl) => ({ value: tpl._key, label: tpl.name }))}
            value={template}
            onChange={setTemplate}
            allowDeselect={false}
            data-testid="print-template"
            comboboxProps={{ withinPortal: true }}
          />
        )}
        {perSerial && <Checkbox checked={oneEach} onChange={(e) => setOneEach(e.currentTarget.checked)} label={<Trans>Un'etichetta per ogni seriale del lotto</Trans>} />}
        <Select
          label={<Trans>Stampante</Trans>}
          placeholder={t`Scegli una stampante`}
          data={(printers.data ?? []).map((p) => ({ value: p._key, label: p.name }))}
          value={printer}
          onChange={setPrinter}
          data-testid="print-printer"
          comboboxProps={{ withinPortal: true }}
        />
        {printer && printer !== myDefault.data?._key && (
          <Checkbox checked={makeDefault} onChange={(e) => setMakeDefault(e.currentTarget.checked)} label={<Trans>Usa come mia stampante predefinita</Trans>} />
        )}
        {last?.error && (
          <Alert color="red" data-testid="print-error">
            <Text size="sm">{last.error}</Text>
            <Anchor href={last.pdf_url} target="_blank" size="sm">
              <Trans>Scarica comunque il PDF</Trans>
            </Anchor>
          </Alert>
        )}
        {last?.printed !== undefined && !last.error && (
          <Alert color="green" data-testid="print-sent">
            <Text size="sm">
              <Trans>Inviato a {last.printed}.</Trans>{' '}
              <Anchor href={last.pdf_url} target="_blank" size="sm">
                <Trans>Apri il PDF</Trans>
              </Anchor>
            </Text>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void run(false)} disabled={!ready || busy} data-testid="print-download">
            <Trans>Scarica PDF</Trans>
          </Button>
          <Button onClick={() => void run(true)} disabled={!ready || !printer || busy} loading={busy} data-testid="print-send">
            <Trans>Invia alla stampante</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
