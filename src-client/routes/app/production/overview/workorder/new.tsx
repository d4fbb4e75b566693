import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Anchor, Button, Group, Paper, Select, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import {
  AUTOCOMPLETE_MIN_CHARS,
  MAX_QUANTITY,
  type ProductChoice,
  WORK_ORDER_LINE_MAX,
  WORK_ORDER_NOTES_MAX,
} from '../../../../../../src/domains/work-orders/schemas'
import { type NumberRules, readNumberText } from '../../../../../../src/i18n/number-text'
import { NumberTextInput } from '../../../../../components/NumberTextInput'
import { UnsavedChangesGuard } from '../../../../../components/UnsavedChangesGuard'
import { toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { notifySuccess } from '../../../../../lib/notify'
import { trpc, trpcClient } from '../../../../../lib/trpc'
import { isoToDateText } from '../../../../../../src/i18n/date-text'
import { DateField } from '../../../../../components/DateField'
import { invalidateWorkOrders, useAllowUnassigned } from '../../workorder/-workorder-ui'
import { useOperatorOptions } from '../../../../../components/jobs/OperatorSelect'

const QUANTITY_RULES: NumberRules = { min: 1, max: MAX_QUANTITY, integer: true }

export const Route = createFileRoute('/app/production/overview/workorder/new')({
  component: NewWorkOrder,
})

/**
 * A new work order: product (active, with a process; autocomplete from 3 characters, first 100),
 * quantity, dates, line, notes and who runs each phase's job. Where the settings forbid unassigned
 * jobs every phase needs an operator: one for all phases, or one per phase.
 */
function NewWorkOrder() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const allowUnassigned = useAllowUnassigned()
  const operatorData = useOperatorOptions()

  const [productSearch, setProductSearch] = useState('')
  const [debounced] = useDebouncedValue(productSearch.trim(), 250)
  const [product, setProduct] = useState<ProductChoice | null>(null)
  /** As typed (NumberTextInput). */
  const [quantity, setQuantity] = useState('')
  /** 'YYYY-MM-DD' or null (DateField); a field holding text that is not a date keeps the form from saving. */
  const [startFrom, setStartFrom] = useState<string | null>(null)
  const [dueBy, setDueBy] = useState<string | null>(null)
  const [startUnreadable, setStartUnreadable] = useState(false)
  const [dueUnreadable, setDueUnreadable] = useState(false)
  const [line, setLine] = useState('')
  const [notes, setNotes] = useState('')
  const [operator, setOperator] = useState<string | null>(null)
  const [phaseOperators, setPhaseOperators] = useState<Record<string, string | null>>({})
  const [showErrors, setShowErrors] = useState(false)
  const [serverError, setServerError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  // Once a product is chosen its label fills the box: no search for that.
  const chosenLabel = product ? `${product.code} — ${product.description}` : null
  const enough = debounced.length >= AUTOCOMPLETE_MIN_CHARS && debounced !== chosenLabel
  const choices = useQuery({
    ...trpc.workOrders.productChoices.queryOptions({ search: debounced }),
    enabled: enough,
    placeholderData: keepPreviousData,
  })
  const found = enough ? (choices.data ?? []) : product ? [product] : []
  const productData = [...(product && !found.some((p) => p._key === product._key) ? [product] : []), ...found]

  const phases = product?.phases ?? []
  const operatorOf = (phaseKey: string) => phaseOperators[phaseKey] ?? operator
  const unassignedPhases = phases.filter((p) => !operatorOf(p._key))
  const needsOperators = allowUnassigned === false && unassignedPhases.length > 0

  const pieces = readNumberText(quantity, { ...QUANTITY_RULES, required: true })
  // Refused text shows the field's own reason; an empty field says what to type.
  const quantityError = showErrors && !pieces.ok ? t`Inserisci una quantità maggiore di 0` : null
  const datesOrdered = !(startFrom && dueBy && dueBy < startFrom)
  const dirty = Boolean(product || quantity !== '' || startFrom || dueBy || startUnreadable || dueUnreadable || line || notes)

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setShowErrors(true)
    setServerError(null)
    if (!product || !pieces.ok || pieces.value === null) return
    if (startUnreadable || dueUnreadable || !datesOrdered) return
    if (needsOperators) return
    setSaving(true)
    try {
      const wo = await trpcClient.workOrders.create.mutate({
        product_key: product._key,
        quantity: pieces.value,
        // The API takes days as SPEC 5 writes them.
        start_from: startFrom ? isoToDateText(startFrom) : null,
        due_by: dueBy ? isoToDateText(dueBy) : null,
        line,
        notes,
        operator_key: operator,
        phase_operators: phases.flatMap((p) => (phaseOperators[p._key] ? [{ phase_key: p._key, operator_key: phaseOperators[p._key]! }] : [])),
      })
      await invalidateWorkOrders()
      notifySuccess(t`Ordine di lavoro ${wo.code} creato`)
      await navigate({ to: '/app/production/workorder/$wo_key/job-list', params: { wo_key: wo._key }, ignoreBlocker: true })
    } catch (err) {
      setServerError(errorMessage(toApiError(err)))
    } finally {
      setSaving(false)
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <UnsavedChangesGuard dirty={dirty && !saving} />
      <Anchor component={Link} to="/app/production/overview/workorder" size="sm" mb="xs" display="inline-block">
        ← <Trans>Ordini di lavoro</Trans>
      </Anchor>
      <Title order={2} mb="md">
        <Trans>Nuovo ordine di lavoro</Trans>
      </Title>
      <Stack gap="md" maw={900}>
        <Paper withBorder p="lg" radius="md">
          <Stack gap="md">
            <Select
              label={t`Prodotto`}
              description={t`Prodotti attivi con un processo; scrivi almeno ${AUTOCOMPLETE_MIN_CHARS} caratteri (primi 100 risultati)`}
              placeholder={t`Codice o descrizione`}
              withAsterisk
              searchable
              clearable
              filter={({ options }) => options}
              searchValue={productSearch}
              onSearchChange={setProductSearch}
              data={productData.map((p) => ({ value: p._key, label: `${p.code} — ${p.description}` }))}
              value={product?._key ?? null}
              onChange={(key) => {
                setProduct(productData.find((p) => p._key === key) ?? null)
                setPhaseOperators({})
              }}
              nothingFoundMessage={
                debounced.length >= AUTOCOMPLETE_MIN_CHARS ? (choices.isFetching ? t`Ricerca…` : t`Nessun prodotto attivo con un processo`) : t`Scrivi almeno 3 caratteri`
              }
              error={showErrors && !product ? t`Scegli un prodotto` : null}
              maw={560}
            />
            <Group align="flex-start" gap="md" wrap="wrap">
              <NumberTextInput
                label={t`Quantità`}
                withAsterisk
                name="quantity"
                {...QUANTITY_RULES}
                value={quantity}
                onChange={setQuantity}
                error={quantityError}
                w={160}
              />
              <DateField label={t`Inizio da`} name="start_from" value={startFrom} onChange={setStartFrom} onUnreadable={setStartUnreadable} w={160} />
              <DateField
                label={t`Consegna entro`}
                name="due_by"
                value={dueBy}
                onChange={setDueBy}
                onUnreadable={setDueUnreadable}
                w={160}
                error={!datesOrdered ? t`La data di consegna non può precedere la data di inizio` : null}
              />
              <TextInput label={t`Linea`} value={line} onChange={(e) => setLine(e.currentTarget.value)} maxLength={WORK_ORDER_LINE_MAX} w={200} />
            </Group>
            <Textarea label={t`Note`} description={t`Visibili agli operatori`} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} autosize minRows={3} maxLength={WORK_ORDER_NOTES_MAX} />
          </Stack>
        </Paper>

        <Paper withBorder p="lg" radius="md">
          <Title order={4} mb={4}>
            <Trans>Operatori</Trans>
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            {allowUnassigned === false ? (
              <Trans>I job non assegnati non sono ammessi: scegli un operatore per tutte le fasi o uno per ogni fase.</Trans>
            ) : (
              <Trans>Ogni fase riceve un job con tutta la quantità. Lascia vuoto per creare job non assegnati.</Trans>
            )}
          </Text>
          <Select
            label={t`Operatore per tutte le fasi`}
            placeholder={t`Nessuno`}
            clearable
            searchable
            data={operatorData}
            value={operator}
            onChange={setOperator}
            maw={320}
            mb="md"
          />
          {phases.length > 0 ? (
            <Table withTableBorder verticalSpacing="xs" maw={640}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={60}>#</Table.Th>
                  <Table.Th>
                    <Trans>Fase</Trans>
                  </Table.Th>
                  <Table.Th>
                    <Trans>Operatore</Trans>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {phases.map((p) => (
                  <Table.Tr key={p._key}>
                    <Table.Td>{p.position}</Table.Td>
                    <Table.Td>{p.name}</Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={t`Operatore della fase ${p.name}`}
                        placeholder={operator ? t`Come sopra` : allowUnassigned === false ? t`Scegli un operatore` : t`Non assegnato`}
                        clearable
                        searchable
                        size="xs"
                        data={operatorData}
                        value={phaseOperators[p._key] ?? null}
                        onChange={(x) => setPhaseOperators((prev) => ({ ...prev, [p._key]: x }))}
                        error={showErrors && needsOperators && !operatorOf(p._key)}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Text size="sm" c="dimmed">
              <Trans>Scegli un prodotto per vedere le sue fasi.</Trans>
            </Text>
          )}
          {showErrors && needsOperators && (
            <Text c="red" size="sm" mt="sm">
              <Trans>Assegna un operatore a ogni fase.</Trans>
            </Text>
          )}
        </Paper>

        {serverError && (
          <Alert color="red" title={t`Impossibile creare l'ordine di lavoro`}>
            {serverError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" component={Link} to="/app/production/overview/workorder">
            <Trans>Annulla</Trans>
          </Button>
          <Button type="submit" loading={saving}>
            <Trans>Crea ordine di lavoro</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
