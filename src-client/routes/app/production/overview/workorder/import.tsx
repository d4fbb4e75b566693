import type { MessageDescriptor } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Anchor, Badge, Button, Code, FileButton, Group, Paper, Stack, Table, Text, Title } from '@mantine/core'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { IMPORT_COLUMNS, IMPORT_CSV_MAX_BYTES, type ImportPreview, type ImportRowError } from '../../../../../../src/domains/flows/imports'
import { ApiError, toApiError } from '../../../../../lib/api-error'
import { errorMessage } from '../../../../../lib/error-messages'
import { i18n } from '../../../../../lib/i18n'
import { issueText } from '../../../../../lib/input-issue-messages'
import { newIdempotencyKey } from '../../../../../lib/idempotency'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { trpcClient } from '../../../../../lib/trpc'
import { invalidateWorkOrders } from '../../workorder/-workorder-ui'

export const Route = createFileRoute('/app/production/overview/workorder/import')({
  component: ImportWorkOrders,
})

/**
 * A row's error as the planner reads it: the column (named as in the table), the value the file
 * had, and what is wrong with it in the planner's language ("Quantità «2,5»: solo numeri interi").
 */
function rowErrorText(e: ImportRowError): string {
  const columns: Record<string, MessageDescriptor> = {
    product_code: msg`Prodotto`,
    quantity: msg`Quantità`,
    start_from: msg`Inizio`,
    due_by: msg`Consegna`,
    line: msg`Linea`,
    notes: msg`Note`,
    operator_username: msg`Operatore`,
  }
  const what = e.kind ? issueText(e.kind, e.limit) : errorMessage(new ApiError(422, e.code, e.message))
  const value = e.value ? ` «${e.value}»` : ''
  if (!e.field) return what
  const column = columns[e.field]
  return `${column ? i18n._(column) : e.field}${value}: ${what}`
}

type Loaded = { name: string; csv: string; key: string }

/**
 * Work orders from a CSV (an ERP export or a spreadsheet): the preview shows every row as it will
 * be created and every row's error before anything is written; the import then creates all rows
 * or none. The file keeps one idempotency key, so a double click or a retry creates nothing twice.
 */
function ImportWorkOrders() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const [file, setFile] = useState<Loaded | null>(null)
  const [preview, setPreview] = useState<ImportPreview | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null)

  async function choose(f: File | null) {
    setPreview(null)
    setProblem(null)
    if (!f) return setFile(null)
    if (f.size > IMPORT_CSV_MAX_BYTES) {
      setFile(null)
      return setProblem(t`Il file è più grande di 2 MiB`)
    }
    const loaded = { name: f.name, csv: await f.text(), key: newIdempotencyKey() }
    setFile(loaded)
    setBusy('preview')
    try {
      setPreview(await trpcClient.imports.previewCsv.mutate({ csv: loaded.csv }))
    } catch (e) {
      setProblem(errorMessage(toApiError(e)))
    } finally {
      setBusy(null)
    }
  }

  async function runImport() {
    if (!file) return
    setBusy('import')
    try {
      const result = await trpcClient.imports.importCsv.mutate({ csv: file.csv, idempotency_key: file.key })
      await invalidateWorkOrders()
      notifySuccess(t`${result.created.length} ordini di lavoro importati`)
      await navigate({ to: '/app/production/overview/workorder' })
    } catch (e) {
      const error = toApiError(e)
      if (error.code === 'IMPORT_ROWS_INVALID') {
        // Something changed since the preview (a product deactivated ...): show the rows again.
        setPreview(await trpcClient.imports.previewCsv.mutate({ csv: file.csv }).catch(() => preview))
      }
      notifyError(e)
    } finally {
      setBusy(null)
    }
  }

  return (
    <Stack gap="md" maw={1200}>
      <Anchor component={Link} to="/app/production/overview/workorder" size="sm">
        ← <Trans>Ordini di lavoro</Trans>
      </Anchor>
      <Title order={2}>
        <Trans>Importa ordini di lavoro da CSV</Trans>
      </Title>
      <Paper withBorder p="md" radius="md">
        <Stack gap="xs">
          <Text size="sm">
            <Trans>
              Una riga per ordine, con una riga di intestazione. Separatore virgola o punto e virgola. Colonne (in qualsiasi ordine; servono almeno
              product_code e quantity):
            </Trans>
          </Text>
          <Code block>{IMPORT_COLUMNS.join(';')}</Code>
          <Text size="xs" c="dimmed">
            <Trans>Date come 2026/12/24 o 2026-12-24; operator_username assegna tutte le fasi a quell'operatore. Niente viene scritto prima di «Importa».</Trans>
          </Text>
          <Group>
            <FileButton onChange={choose} accept=".csv,text/csv,text/plain">
              {(props) => (
                <Button {...props} loading={busy === 'preview'} data-testid="import-choose">
                  <Trans>Scegli il file CSV</Trans>
                </Button>
              )}
            </FileButton>
            {file && <Text size="sm">{file.name}</Text>}
          </Group>
        </Stack>
      </Paper>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      {preview && (
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap">
              <Group gap="sm">
                <Badge color="green" size="lg">{plural(preview.valid, { one: '# pronta', other: '# pronte' })}</Badge>
                {preview.invalid > 0 && <Badge color="red" size="lg">{t`${preview.invalid} con errori`}</Badge>}
              </Group>
              <Button onClick={runImport} loading={busy === 'import'} disabled={preview.invalid > 0 || preview.valid === 0} data-testid="import-run">
                {plural(preview.valid, { one: 'Importa # ordine', other: 'Importa # ordini' })}
              </Button>
            </Group>
            {preview.invalid > 0 && (
              <Alert color="red">
                <Trans>Correggi le righe con errori nel file e sceglilo di nuovo: l'importazione crea tutte le righe o nessuna.</Trans>
              </Alert>
            )}
            <Table.ScrollContainer minWidth={800}>
              <Table striped data-testid="import-preview">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t`Riga`}</Table.Th>
                    <Table.Th>{t`Prodotto`}</Table.Th>
                    <Table.Th>{t`Quantità`}</Table.Th>
                    <Table.Th>{t`Inizio`}</Table.Th>
                    <Table.Th>{t`Consegna`}</Table.Th>
                    <Table.Th>{t`Linea`}</Table.Th>
                    <Table.Th>{t`Operatore`}</Table.Th>
                    <Table.Th>{t`Esito`}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.rows.map((r) => (
                    <Table.Tr key={r.row} data-row={r.row} bg={r.errors.length ? 'var(--mantine-color-red-light)' : undefined}>
                      <Table.Td>{r.row}</Table.Td>
                      <Table.Td>{r.product_code || '—'}</Table.Td>
                      <Table.Td>{r.quantity ?? '—'}</Table.Td>
                      <Table.Td>{r.start_from ?? '—'}</Table.Td>
                      <Table.Td>{r.due_by ?? '—'}</Table.Td>
                      <Table.Td>{r.line || '—'}</Table.Td>
                      <Table.Td>{r.operator_username ?? '—'}</Table.Td>
                      <Table.Td>
                        {r.errors.length === 0 ? (
                          <Text size="sm" c="green">{t`Verrà creato`}</Text>
                        ) : (
                          <Stack gap={2}>
                            {r.errors.map((e, i) => (
                              <Text key={i} size="sm" c="red" data-testid="import-row-error">
                                {rowErrorText(e)}
                              </Text>
                            ))}
                          </Stack>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        </Paper>
      )}
    </Stack>
  )
}
