import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Grid, Group, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import type { FieldRow } from '../../../../../../src/domains/form-fields/schemas'
import { PRODUCT_CODE_MAX, PRODUCT_DESCRIPTION_MAX, PRODUCT_NOTES_MAX, PRODUCT_QUANTITY_MAX } from '../../../../../../src/domains/products/schemas'
import { type NumberRules, readNumberText } from '../../../../../../src/i18n/number-text'
import { ReleasedRevisionCard } from '../../../../../components/revisions/ReleasedRevisionCard'
import { TagBadges } from '../../../../../components/products/ProductBadges'
import { Card, DocumentsCard, ImageCard, StateCard } from '../../../../../components/products/ProductCards'
import { MetadataEditor, MetadataView, metadataProblems, metadataValue, removedFiles } from '../../../../../components/products/Metadata'
import { tagChanges, TagsField } from '../../../../../components/products/tags'
import { NumberTextInput, toNumberText } from '../../../../../components/NumberTextInput'
import { LoadError, Loading } from '../../../../../components/QueryState'
import { UnsavedChangesGuard } from '../../../../../components/UnsavedChangesGuard'
import { toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { rememberProduct } from '../../../../../lib/product-memory'
import { deleteFieldFiles, type Product, type ProductMetadataItem, productChanged } from '../../../../../lib/products'
import { trpc, trpcClient } from '../../../../../lib/trpc'

export const Route = createFileRoute('/app/library/product/$product_key/home')({
  component: ProductHome,
})

function ProductHome() {
  const { product_key } = Route.useParams()
  const { data, error } = useQuery(trpc.products.get.queryOptions({ key: product_key }))
  const { data: fields = [] } = useQuery(trpc.formFields.list.queryOptions({}))
  useEffect(() => rememberProduct(product_key, { last_page: 'home' }), [product_key])
  if (error) return <LoadError error={error} />
  if (!data) return <Loading />
  return (
    <Stack gap="md">
      {!data.trash && !data.active && <InactiveNotice product={data} />}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            <ProductData key={data._key} product={data} fields={fields} />
            <DocumentsCard product={data} readOnly={data.trash} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <ReleasedRevisionCard productKey={data._key} />
            <StateCard product={data} />
            <ImageCard product={data} readOnly={data.trash} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  )
}

function InactiveNotice({ product }: { product: Product }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  async function reactivate() {
    setBusy(true)
    try {
      await productChanged(await trpcClient.products.setState.mutate({ key: product._key, patch: { active: true } }))
      notifySuccess(t`Prodotto riattivato`)
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Alert color="orange" variant="light" data-testid="inactive-notice">
      <Group justify="space-between">
        <Text size="sm">
          <Trans>Questo prodotto non è attivo: non compare tra i prodotti attivi.</Trans>
        </Text>
        <Button size="compact-sm" color="orange" onClick={() => void reactivate()} loading={busy}>
          <Trans>Riattiva</Trans>
        </Button>
      </Group>
    </Alert>
  )
}

type Draft = {
  code: string
  description: string
  notes: string
  /** As typed (NumberTextInput); read with QUANTITY_RULES when saved. */
  minimum_order: string
  technical_batch: string
  tags: string[]
  metadata: ProductMetadataItem[]
}

const draftOf = (p: Product): Draft => ({
  code: p.code,
  description: p.description,
  notes: p.notes,
  minimum_order: toNumberText(p.minimum_order),
  technical_batch: toNumberText(p.technical_batch),
  tags: p.tags.map((t) => t.name),
  metadata: p.metadata,
})

const sameDraft = (a: Draft, b: Draft) => JSON.stringify(a) === JSON.stringify(b)

const CODE_ERRORS = ['PRODUCT_CODE_REQUIRED', 'PRODUCT_CODE_TAKEN']
const QUANTITY_RULES: NumberRules = { min: 0, max: PRODUCT_QUANTITY_MAX, integer: true }

/**
 * The home fields (SPEC 3 Product): code, description, tags, notes, minimum order, technical
 * batch and custom metadata. Its own edit mode (SPEC 4): "Modifica" starts a draft, "Salva" sends
 * it (`PUT product/{key}`, then the tag changes), "Annulla" drops it; leaving with unsaved
 * changes asks first (router blocker and the browser's unload prompt).
 */
function ProductData({ product, fields }: { product: Product; fields: FieldRow[] }) {
  const { t, i18n } = useLingui()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState<Draft>(() => draftOf(product))
  const [saving, setSaving] = useState(false)
  const [showErrors, setShowErrors] = useState(false)
  const [codeError, setCodeError] = useState<string | null>(null)
  const byKey = useMemo(() => new Map(fields.map((f) => [f._key, f])), [fields])
  const saved = draftOf(product)
  const dirty = editing && !sameDraft(draft, saved)
  const readOnly = product.trash

  // Leaving edit mode when the product goes to the trash meanwhile.
  useEffect(() => {
    if (readOnly) setEditing(false)
  }, [readOnly])

  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }))

  function start() {
    setDraft(draftOf(product))
    setShowErrors(false)
    setCodeError(null)
    setEditing(true)
  }

  function cancel() {
    setDraft(draftOf(product))
    setEditing(false)
    setShowErrors(false)
    setCodeError(null)
  }

  async function save(e: React.FormEvent) {
    e.preventDefault()
    setShowErrors(true)
    if (!draft.code.trim()) return setCodeError(t`Il codice è obbligatorio`)
    if (metadataProblems(draft.metadata, byKey).size > 0) return
    // The fields say why their text is refused.
    const minimumOrder = readNumberText(draft.minimum_order, QUANTITY_RULES)
    const technicalBatch = readNumberText(draft.technical_batch, QUANTITY_RULES)
    if (!minimumOrder.ok || !technicalBatch.ok) return
    setSaving(true)
    try {
      let row = await trpcClient.products.update.mutate({
        key: product._key,
        product: {
          code: draft.code,
          description: draft.description,
          notes: draft.notes,
          minimum_order: minimumOrder.value,
          technical_batch: technicalBatch.value,
          metadata: draft.metadata.map((m) => ({ custom_field_key: m.custom_field_key, value: metadataValue(byKey.get(m.custom_field_key), m.value) ?? null })),
        },
      })
      const { added, removed } = tagChanges(product.tags, draft.tags)
      for (const tag of removed) {
        await trpcClient.tags.updateConnections.mutate({ type: 'remove', context: 'product', context_key: product._key, tag_key: tag._key })
      }
      for (const name of added) {
        await trpcClient.tags.updateConnections.mutate({ type: 'add', context: 'product', context_key: product._key, tag_name: name })
      }
      if (added.length || removed.length) row = await trpcClient.products.get.query({ key: product._key })
      // Files a files field no longer lists are deleted now that the metadata is saved.
      for (const { field, names } of removedFiles(product.metadata, row.metadata, byKey)) {
        try {
          await deleteFieldFiles(product._key, field, names)
        } catch (err) {
          window.alert(t`Eliminazione dei file non riuscita: ${errorMessage(toApiError(err))}`)
        }
      }
      await productChanged(row)
      setEditing(false)
      setShowErrors(false)
      notifySuccess(t`Prodotto salvato`)
    } catch (err) {
      const error = toApiError(err)
      if (CODE_ERRORS.includes(error.code)) setCodeError(errorMessage(error))
      else notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  const actions = !editing && !readOnly && (
    <Button size="compact-md" variant="light" onClick={start}>
      <Trans>Modifica</Trans>
    </Button>
  )

  // While editing, the buttons stay in sight at the bottom of the card however long it gets.
  const footer = (
    <Paper withBorder p="sm" radius="md" pos="sticky" bottom={8} mt="md" shadow="xs" style={{ zIndex: 2 }} data-testid="edit-bar">
      <Group justify="flex-end" gap="sm" wrap="nowrap">
        {dirty && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            <Trans>Modifiche non salvate</Trans>
          </Text>
        )}
        <Button variant="default" onClick={cancel} disabled={saving}>
          <Trans>Annulla</Trans>
        </Button>
        <Button type="submit" loading={saving} disabled={!dirty}>
          <Trans>Salva</Trans>
        </Button>
      </Group>
    </Paper>
  )

  return (
    <form onSubmit={save} noValidate>
      <UnsavedChangesGuard dirty={dirty && !saving} />
      <Card title={<Trans>Dati del prodotto</Trans>} action={actions} testId="product-data">
        {editing ? (
          <Stack gap="sm">
            <Group grow align="flex-start">
              <TextInput
                label={t`Codice`}
                withAsterisk
                maxLength={PRODUCT_CODE_MAX}
                value={draft.code}
                onChange={(e) => {
                  set('code', e.currentTarget.value)
                  setCodeError(null)
                }}
                error={codeError ?? (showErrors && !draft.code.trim() ? t`Il codice è obbligatorio` : null)}
              />
              <TextInput label={t`Descrizione`} maxLength={PRODUCT_DESCRIPTION_MAX} value={draft.description} onChange={(e) => set('description', e.currentTarget.value)} />
            </Group>
            <TagsField value={draft.tags} onChange={(v) => set('tags', v)} />
            <Group grow align="flex-start">
              <NumberTextInput
                label={t`Ordine minimo`}
                description={t`Pezzi`}
                name="minimum_order"
                {...QUANTITY_RULES}
                value={draft.minimum_order}
                onChange={(text) => set('minimum_order', text)}
              />
              <NumberTextInput
                label={t`Lotto tecnico`}
                description={t`Pezzi`}
                name="technical_batch"
                {...QUANTITY_RULES}
                value={draft.technical_batch}
                onChange={(text) => set('technical_batch', text)}
              />
            </Group>
            <Textarea label={t`Note`} autosize minRows={2} maxRows={10} maxLength={PRODUCT_NOTES_MAX} value={draft.notes} onChange={(e) => set('notes', e.currentTarget.value)} />
            <div>
              <Text size="sm" fw={500} mb={6}>
                <Trans>Dati personalizzati</Trans>
              </Text>
              <MetadataEditor items={draft.metadata} onChange={(m) => set('metadata', m)} fields={fields} productKey={product._key} showErrors={showErrors} />
            </div>
            {footer}
          </Stack>
        ) : (
          <Stack gap="sm">
            <Field label={t`Codice`}>
              <Text fw={600}>{product.code}</Text>
            </Field>
            <Field label={t`Descrizione`}>{product.description || <Dimmed />}</Field>
            <Field label={t`Tag`}>{product.tags.length ? <TagBadges tags={product.tags} max={20} size="lg" /> : <Dimmed />}</Field>
            <Group grow>
              <Field label={t`Ordine minimo`}>{product.minimum_order === null ? <Dimmed /> : i18n.number(product.minimum_order)}</Field>
              <Field label={t`Lotto tecnico`}>{product.technical_batch === null ? <Dimmed /> : i18n.number(product.technical_batch)}</Field>
            </Group>
            <Field label={t`Note`}>
              {product.notes ? (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {product.notes}
                </Text>
              ) : (
                <Dimmed />
              )}
            </Field>
            <Field label={t`Dati personalizzati`}>
              <MetadataView items={product.metadata} fields={byKey} productKey={product._key} />
            </Field>
          </Stack>
        )}
      </Card>
    </form>
  )
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} mb={2}>
        {label}
      </Text>
      {typeof children === 'string' || typeof children === 'number' ? <Text size="sm">{children}</Text> : children}
    </div>
  )
}

function Dimmed() {
  return (
    <Text size="sm" c="dimmed">
      —
    </Text>
  )
}
