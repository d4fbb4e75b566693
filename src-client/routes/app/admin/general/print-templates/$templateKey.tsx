import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Box, Button, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import * as pdfjs from 'pdfjs-dist'
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'
import { useEffect, useRef, useState } from 'react'
import { FIELD_KINDS, type FieldKind, LINK_TYPES, type LinkType, PRESETS, type Preset, type PrintTemplateRow, type TemplateField } from '../../../../../../src/domains/printing/schemas'
import { Loading } from '../../../../../components/QueryState'
import { openPdfBase64 } from '../../../../../components/printing/pdf'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../../lib/trpc'

/** The field editor: the base PDF's first page rendered by pdf.js, fields placed by clicking on it (its own lazy chunk). */
export const Route = createFileRoute('/app/admin/general/print-templates/$templateKey')({
  component: TemplateEditor,
})

const DEFAULT_SIZE: Record<FieldKind, [number, number]> = { text: [160, 14], code128: [160, 40], qrcode: [60, 60], datamatrix: [50, 50], ean13: [130, 50] }
const num = (text: string) => {
  const n = Number(text.trim().replace(',', '.'))
  return Number.isFinite(n) ? n : null
}

function TemplateEditor() {
  const { templateKey } = Route.useParams()
  const { data, error } = useQuery(trpc.printTemplates.get.queryOptions({ key: templateKey }))
  if (error) return <Alert color="red">{error.message}</Alert>
  if (!data) return <Loading />
  return <Editor key={data._key + data.updated_at} template={data} />
}

function Editor({ template }: { template: PrintTemplateRow }) {
  const { t } = useLingui()
  const [fields, setFields] = useState<TemplateField[]>(template.fields)
  const [selected, setSelected] = useState<number | null>(null)
  const [draft, setDraft] = useState<{ kind: FieldKind; link_type: LinkType; link: string; name: string }>({ kind: 'text', link_type: 'preset', link: 'product_code', name: '' })
  const [placing, setPlacing] = useState(false)
  const [busy, setBusy] = useState(false)
  const canvas = useRef<HTMLCanvasElement>(null)
  const scale = Math.min(1.6, 720 / template.page_width)
  const formFields = useQuery(trpc.formFields.list.queryOptions({ active_only: true }))

  useEffect(() => {
    let cancelled = false
    // Set here, not at module level: a top-level statement would keep pdf.js in the route tree's first load.
    pdfjs.GlobalWorkerOptions.workerSrc = workerUrl
    const task = pdfjs.getDocument({ url: template.base_pdf_url, withCredentials: true })
    void task.promise
      .then(async (doc) => {
        const page = await doc.getPage(1)
        const viewport = page.getViewport({ scale })
        const c = canvas.current
        if (!c || cancelled) return
        c.width = viewport.width
        c.height = viewport.height
        await page.render({ canvas: c, canvasContext: c.getContext('2d')!, viewport }).promise
      })
      // Leaving the screen destroys the loading task: that rejection is no error for the user.
      .catch((e) => {
        if (!cancelled) notifyError(e)
      })
    return () => {
      cancelled = true
      void task.destroy()
    }
  }, [template.base_pdf_url, scale])

  const presetLabels: Record<Preset, string> = {
    product_code: t`Codice prodotto`,
    product_description: t`Descrizione prodotto`,
    work_order_code: t`Codice ordine di lavoro`,
    quantity: t`Quantità`,
    due_date: t`Data di consegna`,
    job: t`Job`,
    phase: t`Fase`,
    operator: t`Operatore`,
    serial_code: t`Codice seriale`,
    position_code: t`Codice posizione`,
    position_description: t`Descrizione posizione`,
    position_path: t`Percorso posizione (es. MAG / A / A-01)`,
    issue_code: t`Codice segnalazione`,
    issue_title: t`Titolo segnalazione`,
    today: t`Data di oggi`,
    job_url: t`Link al job (area operatore)`,
  }
  const kindLabels: Record<FieldKind, string> = { text: t`Testo`, code128: 'Code 128', qrcode: 'QR', datamatrix: 'DataMatrix', ean13: 'EAN-13' }
  const linkLabels: Record<LinkType, string> = { preset: t`Dato predefinito`, custom_field: t`Campo personalizzato`, fixed: t`Testo fisso` }
  const fieldName = (f: Pick<TemplateField, 'link_type' | 'link'>) =>
    f.link_type === 'preset' ? (presetLabels[f.link as Preset] ?? f.link) : f.link_type === 'custom_field' ? (formFields.data?.find((x) => x._key === f.link)?.name ?? f.link) : f.link

  const place = (e: React.MouseEvent<HTMLDivElement>) => {
    if (!placing) return
    const rect = e.currentTarget.getBoundingClientRect()
    const [w, h] = DEFAULT_SIZE[draft.kind]
    const width = Math.min(w, template.page_width)
    const height = Math.min(h, template.page_height)
    const x = Math.max(0, Math.min(template.page_width - width, (e.clientX - rect.left) / scale))
    const y = Math.max(0, Math.min(template.page_height - height, (e.clientY - rect.top) / scale))
    const round = (n: number) => Math.round(n * 10) / 10
    let name = draft.name.trim() || fieldName(draft)
    while (fields.some((f) => f.name.toLowerCase() === name.toLowerCase())) name = `${name} 2`
    setFields([...fields, { name, kind: draft.kind, link_type: draft.link_type, link: draft.link, page: 1, x: round(x), y: round(y), width, height, font_size: 10 }])
    setSelected(fields.length)
    setPlacing(false)
    setDraft({ ...draft, name: '' })
  }
  const update = (i: number, patch: Partial<TemplateField>) => setFields(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)))
  const save = async () => {
    setBusy(true)
    try {
      await trpcClient.printTemplates.patch.mutate({ key: template._key, patch: { fields } })
      notifySuccess(t`Campi salvati`)
      await queryClient.invalidateQueries({ queryKey: trpc.printTemplates.get.queryKey({ key: template._key }) })
      await queryClient.invalidateQueries({ queryKey: trpc.printTemplates.list.queryKey() })
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }
  const preview = async () => {
    try {
      await trpcClient.printTemplates.patch.mutate({ key: template._key, patch: { fields } })
      const { pdf_base64 } = await trpcClient.printTemplates.preview.mutate({ key: template._key })
      openPdfBase64(pdf_base64)
    } catch (e) {
      notifyError(e)
    }
  }
  const linkChoices =
    draft.link_type === 'preset'
      ? PRESETS.map((p) => ({ value: p, label: presetLabels[p] }))
      : (formFields.data ?? []).map((f) => ({ value: f._key, label: f.name }))

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3}>
          <Trans>Campi di {template.name}</Trans>
        </Title>
        <Group>
          <Button variant="default" renderRoot={(p) => <Link {...p} to="/app/admin/general/print-templates" />}>
            <Trans>Torna ai modelli</Trans>
          </Button>
          <Button variant="default" onClick={() => void preview()} data-testid="editor-preview">
            <Trans>Salva e anteprima</Trans>
          </Button>
          <Button onClick={() => void save()} loading={busy} data-testid="editor-save">
            <Trans>Salva</Trans>
          </Button>
        </Group>
      </Group>
      <Paper withBorder p="sm">
        <Group align="flex-end" wrap="wrap">
          <Select label={<Trans>Tipo</Trans>} data={FIELD_KINDS.map((k) => ({ value: k, label: kindLabels[k] }))} value={draft.kind} onChange={(v) => setDraft({ ...draft, kind: (v ?? 'text') as FieldKind })} allowDeselect={false} w={150} data-testid="field-kind" />
          <Select
            label={<Trans>Collegato a</Trans>}
            data={LINK_TYPES.map((l) => ({ value: l, label: linkLabels[l] }))}
            value={draft.link_type}
            onChange={(v) => {
              const lt = (v ?? 'preset') as LinkType
              setDraft({ ...draft, link_type: lt, link: lt === 'preset' ? 'product_code' : lt === 'custom_field' ? (formFields.data?.[0]?._key ?? '') : '' })
            }}
            allowDeselect={false}
            w={190}
            data-testid="field-link-type"
          />
          {draft.link_type === 'fixed' ? (
            <TextInput label={<Trans>Testo</Trans>} value={draft.link} onChange={(e) => setDraft({ ...draft, link: e.currentTarget.value })} maxLength={500} w={220} data-testid="field-fixed" />
          ) : (
            <Select label={<Trans>Dato</Trans>} data={linkChoices} value={draft.link} onChange={(v) => setDraft({ ...draft, link: v ?? '' })} searchable allowDeselect={false} w={240} data-testid="field-link" />
          )}
          <TextInput label={<Trans>Nome (facoltativo)</Trans>} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })} maxLength={100} w={170} />
          <Button onClick={() => setPlacing(true)} disabled={!draft.link} variant={placing ? 'filled' : 'light'} data-testid="field-place">
            {placing ? <Trans>Clicca sulla pagina…</Trans> : <Trans>Posiziona sulla pagina</Trans>}
          </Button>
        </Group>
      </Paper>
      <Group align="flex-start" wrap="wrap" gap="lg">
        <Box
          pos="relative"
          w={template.page_width * scale}
          h={template.page_height * scale}
          style={{ border: '1px solid var(--mantine-color-gray-4)', cursor: placing ? 'crosshair' : 'default', flexShrink: 0 }}
          onClick={place}
          data-testid="page-canvas"
        >
          <canvas ref={canvas} style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }} />
          {fields.map((f, i) => (
            <Box
              key={i}
              pos="absolute"
              left={f.x * scale}
              top={f.y * scale}
              w={f.width * scale}
              h={f.height * scale}
              onClick={(e) => {
                if (placing) return
                e.stopPropagation()
                setSelected(i)
              }}
              style={{
                border: `2px solid ${selected === i ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-orange-5)'}`,
                background: 'rgba(255,165,0,0.12)',
                fontSize: 11,
                overflow: 'hidden',
                pointerEvents: placing ? 'none' : 'auto',
              }}
              data-testid={`placed-${f.name}`}
            >
              {f.kind === 'text' ? f.name : `${kindLabels[f.kind]}: ${f.name}`}
            </Box>
          ))}
        </Box>
        <Stack gap="xs" style={{ flex: 1, minWidth: 320 }}>
          <Text size="sm" c="dimmed">
            <Trans>Posizioni e misure in punti PDF (1 mm = 2,83 pt) dall'angolo in alto a sinistra. Pagina {Math.round(template.page_width)} × {Math.round(template.page_height)} pt.</Trans>
          </Text>
          <Table data-testid="fields-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Trans>Campo</Trans>
                </Table.Th>
                <Table.Th>X</Table.Th>
                <Table.Th>Y</Table.Th>
                <Table.Th>
                  <Trans>Larg.</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Alt.</Trans>
                </Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {fields.map((f, i) => (
                <Table.Tr key={i} bg={selected === i ? 'var(--mantine-color-blue-light)' : undefined} onClick={() => setSelected(i)}>
                  <Table.Td>
                    <Text size="sm">{f.name}</Text>
                    <Text size="xs" c="dimmed">
                      {kindLabels[f.kind]} · {fieldName(f)}
                    </Text>
                  </Table.Td>
                  {(['x', 'y', 'width', 'height'] as const).map((k) => (
                    <Table.Td key={k}>
                      <NumberCell value={f[k]} onChange={(n) => update(i, { [k]: n })} label={`${f.name} ${k}`} />
                    </Table.Td>
                  ))}
                  <Table.Td>
                    <Button size="compact-xs" variant="subtle" color="red" onClick={() => (setFields(fields.filter((_, j) => j !== i)), setSelected(null))}>
                      <Trans>Togli</Trans>
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
              {fields.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={6}>
                    <Text c="dimmed" size="sm">
                      <Trans>Nessun campo: scegli il dato, premi «Posiziona sulla pagina» e clicca dove va.</Trans>
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Stack>
      </Group>
    </Stack>
  )
}

/** A coordinate typed with ',' or '.' as decimal separator; the value changes once it reads as a number. */
function NumberCell({ value, onChange, label }: { value: number; onChange: (n: number) => void; label: string }) {
  const [text, setText] = useState(String(value).replace('.', ','))
  useEffect(() => setText(String(value).replace('.', ',')), [value])
  const bad = num(text) === null || num(text)! < 0
  return (
    <TextInput
      size="xs"
      w={64}
      value={text}
      aria-label={label}
      error={bad}
      onChange={(e) => {
        setText(e.currentTarget.value)
        const n = num(e.currentTarget.value)
        if (n !== null && n >= 0) onChange(n)
      }}
    />
  )
}
