import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, FileInput, Group, Modal, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { ASSIGNMENT_CONTEXTS, type AssignmentContext, BASE_PDF_MAX_BYTES, BLANK_LABEL_MM, type PrintTemplateRow, SETTINGS_LABELS } from '../../../../../../src/domains/printing/schemas'
import { readNumberText } from '../../../../../../src/i18n/number-text'
import { NumberTextInput } from '../../../../../components/NumberTextInput'
import { Loading } from '../../../../../components/QueryState'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { rest } from '../../../../../lib/rest'
import { queryClient, trpc, trpcClient } from '../../../../../lib/trpc'
import { Section, SettingsTable } from '../-settings-ui'
import { PreviewDialog, previewPdf } from './-preview-dialog'

export const Route = createFileRoute('/app/admin/general/print-templates/')({
  component: PrintTemplatesTab,
})

const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.printTemplates.list.queryKey() })

function PrintTemplatesTab() {
  const [view, setView] = useState<'active' | 'trash'>('active')
  const { data } = useQuery(trpc.printTemplates.list.queryOptions({ trash: view === 'trash' }))
  const [assigning, setAssigning] = useState<PrintTemplateRow | null>(null)
  const [preview, setPreview] = useState<{ pdf: Uint8Array; name: string } | null>(null)
  const showPreview = async (tpl: PrintTemplateRow) => {
    try {
      setPreview({ pdf: await previewPdf(tpl._key), name: tpl.name })
    } catch (e) {
      notifyError(e)
    }
  }
  return (
    <Stack maw={1100} gap="lg">
      <Section
        title={<Trans>Modelli di stampa</Trans>}
        description={
          <Trans>
            Un modello è un PDF di base su cui si posizionano campi (testi e codici a barre) riempiti dal server al momento della stampa. Si assegna a fasi, prodotti,
            operazioni, tipi di segnalazione, posizioni o alle etichette delle impostazioni.
          </Trans>
        }
      >
        <UploadTemplate />
        <SegmentedControl
          value={view}
          onChange={(v) => setView(v as 'active' | 'trash')}
          data={[
            { value: 'active', label: <Trans>Modelli</Trans> },
            { value: 'trash', label: <Trans>Cestino</Trans> },
          ]}
          w="fit-content"
        />
        {!data ? (
          <Loading />
        ) : (
          <SettingsTable
            testid="print-templates-table"
            columns={[{ label: <Trans>Nome</Trans> }, { label: <Trans>PDF di base</Trans> }, { label: <Trans>Campi</Trans>, ta: 'right' }, { label: <Trans>Contesto</Trans> }, {}]}
            empty={data.length === 0 && (view === 'trash' ? <Trans>Il cestino è vuoto</Trans> : <Trans>Nessun modello di stampa</Trans>)}
          >
            {data.map((tpl) => (
              <Table.Tr key={tpl._key} data-testid={`print-template-row-${tpl.name}`}>
                <Table.Td>
                  {tpl.name} {tpl.temp && <Badge variant="light" color="gray">{<Trans>temporaneo</Trans>}</Badge>}
                </Table.Td>
                <Table.Td>
                  <a href={tpl.base_pdf_url} target="_blank" rel="noreferrer">
                    {tpl.base_pdf_name}
                  </a>
                </Table.Td>
                <Table.Td ta="right">{tpl.fields.length}</Table.Td>
                <Table.Td>{tpl.context ? `${tpl.context} ${tpl.context_key ?? ''}` : '-'}</Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    {!tpl.trash && (
                      <>
                        <Button
                          size="compact-sm"
                          variant="default"
                          renderRoot={(p) => <Link {...p} to="/app/admin/general/print-templates/$templateKey" params={{ templateKey: tpl._key }} />}
                          data-testid="edit-fields"
                        >
                          <Trans>Campi</Trans>
                        </Button>
                        <Button size="compact-sm" variant="default" onClick={() => setAssigning(tpl)} data-testid="assign">
                          <Trans>Assegnazioni</Trans>
                        </Button>
                      </>
                    )}
                    <Button size="compact-sm" variant="default" onClick={() => void showPreview(tpl)}>
                      <Trans>Anteprima</Trans>
                    </Button>
                    <Button size="compact-sm" variant="subtle" color={tpl.trash ? 'blue' : 'red'} onClick={() => void setTrash(tpl, !tpl.trash)}>
                      {tpl.trash ? <Trans>Ripristina</Trans> : <Trans>Cestina</Trans>}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </SettingsTable>
        )}
      </Section>
      {assigning && <AssignmentsDialog template={assigning} onClose={() => setAssigning(null)} />}
      {preview && <PreviewDialog pdf={preview.pdf} name={preview.name} onClose={() => setPreview(null)} />}
    </Stack>
  )
}

async function setTrash(tpl: PrintTemplateRow, trash: boolean) {
  try {
    await trpcClient.printTemplates.patch.mutate({ key: tpl._key, patch: { trash } })
    await refresh()
  } catch (e) {
    notifyError(e)
  }
}

type Source = 'pdf' | 'blank'

/** A new template: from a PDF made elsewhere, or from a blank label of a size in mm designed here (then its fields editor opens). */
function UploadTemplate() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const [source, setSource] = useState<Source>('pdf')
  const [name, setName] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [width, setWidth] = useState('')
  const [height, setHeight] = useState('')
  const [busy, setBusy] = useState(false)
  const tooBig = file !== null && file.size > BASE_PDF_MAX_BYTES
  const { min, max } = BLANK_LABEL_MM
  const sideRules = { min, max, required: true }
  const w = readNumberText(width, sideRules)
  const h = readNumberText(height, sideRules)
  const ready = name.trim() !== '' && (source === 'pdf' ? file !== null && !tooBig : w.ok && h.ok && w.value !== null && h.value !== null)
  const submit = async () => {
    if (!ready) return
    setBusy(true)
    try {
      if (source === 'blank') {
        const tpl = await trpcClient.printTemplates.createBlank.mutate({ name: name.trim(), width_mm: w.ok ? w.value! : 0, height_mm: h.ok ? h.value! : 0 })
        notifySuccess(t`Etichetta creata: posiziona i campi`)
        await refresh()
        await navigate({ to: '/app/admin/general/print-templates/$templateKey', params: { templateKey: tpl._key } })
        return
      }
      const fd = new FormData()
      fd.append('name', name.trim())
      fd.append('base_pdf', file!)
      await rest('POST', '/print-template', fd)
      notifySuccess(t`Modello caricato`)
      setName('')
      setFile(null)
      await refresh()
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Stack gap="xs">
      <SegmentedControl
        value={source}
        onChange={(v) => setSource(v as Source)}
        data={[
          { value: 'pdf', label: t`Da un PDF` },
          { value: 'blank', label: t`Etichetta vuota` },
        ]}
        w="fit-content"
        data-testid="template-source"
      />
      <Group align="flex-start" wrap="wrap">
        <TextInput label={<Trans>Nome del modello</Trans>} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={200} w={260} data-testid="template-name" />
        {source === 'pdf' ? (
          <FileInput
            label={<Trans>PDF di base</Trans>}
            placeholder={t`Scegli un PDF`}
            accept="application/pdf"
            value={file}
            onChange={setFile}
            w={260}
            error={tooBig ? t`Il PDF supera ${BASE_PDF_MAX_BYTES / 1024 / 1024} MB` : undefined}
            data-testid="template-file"
          />
        ) : (
          <>
            <NumberTextInput
              label={t`Larghezza`}
              {...BLANK_LABEL_MM}
              value={width}
              onChange={setWidth}
              unit="mm"
              w={150}
              onKeyDown={(e) => e.key === 'Enter' && void submit()}
              data-testid="blank-width"
            />
            <NumberTextInput
              label={t`Altezza`}
              {...BLANK_LABEL_MM}
              value={height}
              onChange={setHeight}
              unit="mm"
              w={150}
              onKeyDown={(e) => e.key === 'Enter' && void submit()}
              data-testid="blank-height"
            />
          </>
        )}
        <Button onClick={() => void submit()} disabled={!ready} loading={busy} mt={25} data-testid="template-upload">
          {source === 'pdf' ? <Trans>Carica</Trans> : <Trans>Crea e posiziona i campi</Trans>}
        </Button>
      </Group>
      {source === 'blank' && (
        <Text size="xs" c="dimmed">
          <Trans>
            Larghezza e altezza da {min} a {max} mm; si apre l'editor per posizionare i campi.
          </Trans>
        </Text>
      )}
    </Stack>
  )
}

function AssignmentsDialog({ template, onClose }: { template: PrintTemplateRow; onClose: () => void }) {
  const { t } = useLingui()
  const assignments = useQuery(trpc.printTemplates.assignments.queryOptions({ key: template._key }))
  const [context, setContext] = useState<AssignmentContext>('phase')
  const [productSearch, setProductSearch] = useState('')
  const [product, setProduct] = useState<string | null>(null)
  const [target, setTarget] = useState<string | null>(null)
  const [text, setText] = useState('')
  const products = useQuery({
    ...trpc.products.list.queryOptions({ search: productSearch.trim(), page_size: 20 }),
    enabled: (context === 'phase' || context === 'product') && productSearch.trim().length > 0,
  })
  const phases = useQuery({ ...trpc.printTemplates.productPhases.queryOptions({ product_key: product ?? '' }), enabled: context === 'phase' && product !== null })
  const operations = useQuery({ ...trpc.operations.list.queryOptions({ page_size: 200 }), enabled: context === 'operation' })
  const issueTypes = useQuery({ ...trpc.issueTypes.list.queryOptions({}), enabled: context === 'issue_type' })
  const contextLabels: Record<AssignmentContext, string> = {
    phase: t`Fase`,
    product: t`Prodotto`,
    operation: t`Operazione`,
    issue_type: t`Tipo di segnalazione`,
    position: t`Posizione`,
    settings: t`Impostazioni`,
  }
  const settingsLabels: Record<(typeof SETTINGS_LABELS)[number], string> = {
    product_label: t`Etichetta prodotto`,
    position_label: t`Etichetta posizione`,
    job_traveller: t`Foglio di lavorazione dell'ordine`,
  }
  const key = context === 'product' ? product : context === 'position' ? text.trim() : target
  const change = async (type: 'add' | 'remove', ctx: string, contextKey: string) => {
    try {
      await trpcClient.printTemplates.updateAssignments.mutate({ items: [{ type, context: ctx as AssignmentContext, context_key: contextKey, template_key: template._key }] })
      await queryClient.invalidateQueries({ queryKey: trpc.printTemplates.assignments.queryKey({ key: template._key }) })
      if (type === 'add') notifySuccess(t`Modello assegnato`)
    } catch (e) {
      notifyError(e)
    }
  }
  const productOptions = ((products.data as { rows?: { _key: string; code: string }[] } | undefined)?.rows ?? []).map((p) => ({ value: p._key, label: p.code }))
  const opRows = (operations.data as unknown as { rows?: { _key: string; name: string }[] } | { _key: string; name: string }[] | undefined) ?? []
  const operationOptions = (Array.isArray(opRows) ? opRows : (opRows.rows ?? [])).map((o) => ({ value: o._key, label: o.name }))
  return (
    <Modal opened onClose={onClose} title={<Trans>Assegnazioni di {template.name}</Trans>} size="lg">
      <Stack>
        <Table data-testid="assignments-table">
          <Table.Tbody>
            {(assignments.data ?? []).map((a) => (
              <Table.Tr key={`${a.context}-${a.context_key}`}>
                <Table.Td>{contextLabels[a.context as AssignmentContext] ?? a.context}</Table.Td>
                <Table.Td>{a.context === 'settings' ? (settingsLabels[a.context_key as keyof typeof settingsLabels] ?? a.label) : a.label}</Table.Td>
                <Table.Td ta="right">
                  <Button size="compact-sm" variant="subtle" color="red" onClick={() => void change('remove', a.context, a.context_key)}>
                    <Trans>Rimuovi</Trans>
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
            {assignments.data?.length === 0 && (
              <Table.Tr>
                <Table.Td>
                  <Text c="dimmed">
                    <Trans>Non ancora assegnato</Trans>
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
        <Select
          label={<Trans>Assegna a</Trans>}
          data={ASSIGNMENT_CONTEXTS.map((c) => ({ value: c, label: contextLabels[c] }))}
          value={context}
          onChange={(v) => {
            setContext((v ?? 'phase') as AssignmentContext)
            setTarget(null)
          }}
          allowDeselect={false}
          data-testid="assign-context"
        />
        {(context === 'phase' || context === 'product') && (
          <>
            <TextInput label={<Trans>Cerca il prodotto per codice</Trans>} value={productSearch} onChange={(e) => setProductSearch(e.currentTarget.value)} data-testid="assign-product-search" />
            <Select label={<Trans>Prodotto</Trans>} data={productOptions} value={product} onChange={(v) => (setProduct(v), setTarget(null))} data-testid="assign-product" />
          </>
        )}
        {context === 'phase' && product && (
          <Select
            label={<Trans>Fase</Trans>}
            data={(phases.data ?? []).map((p) => ({ value: p._key, label: p.name }))}
            value={target}
            onChange={setTarget}
            data-testid="assign-phase"
          />
        )}
        {context === 'operation' && <Select label={<Trans>Operazione</Trans>} data={operationOptions} value={target} onChange={setTarget} searchable />}
        {context === 'issue_type' && (
          <Select label={<Trans>Tipo di segnalazione</Trans>} data={(issueTypes.data ?? []).map((i) => ({ value: i._key, label: `${i.code} ${i.name}` }))} value={target} onChange={setTarget} searchable />
        )}
        {context === 'position' && <TextInput label={<Trans>Codice posizione</Trans>} value={text} onChange={(e) => setText(e.currentTarget.value)} maxLength={100} />}
        {context === 'settings' && (
          <Select label={<Trans>Etichetta</Trans>} data={SETTINGS_LABELS.map((l) => ({ value: l, label: settingsLabels[l] }))} value={target} onChange={setTarget} />
        )}
        <Group justify="flex-end">
          <Button onClick={() => key && void change('add', context, key)} disabled={!key} data-testid="assign-add">
            <Trans>Assegna</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
