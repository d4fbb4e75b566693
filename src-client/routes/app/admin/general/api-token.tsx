import { Trans, useLingui } from '@lingui/react/macro'
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { parseScope, SCOPES, type Scope } from '../../../../../src/auth/scopes'
import { API_TOKEN_DESCRIPTION_MAX, type ApiTokenCreated, type ApiTokenRow } from '../../../../../src/domains/api-tokens/schemas'
import { expirationInstant } from '../../../../../src/expiration'
import { formatDate, formatDateTime } from '../../../../../src/i18n/format'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { SCOPE_LABELS } from '../../../../lib/scope-labels'
import { Loading } from '../../../../components/QueryState'
import { Section } from './-settings-ui'

export const Route = createFileRoute('/app/admin/general/api-token')({
  component: ApiTokensTab,
})

const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiTokens.list.queryKey() })

function ApiTokensTab() {
  const { t, i18n } = useLingui()
  const { data } = useQuery(trpc.apiTokens.list.queryOptions())
  const [creating, setCreating] = useState(false)
  const [revoking, setRevoking] = useState<ApiTokenRow | null>(null)
  const statusLabel = { active: t`Attivo`, expired: t`Scaduto`, revoked: t`Revocato` }
  const statusColor = { active: 'teal', expired: 'gray', revoked: 'red' }

  return (
    <Stack gap="lg" maw={1200}>
      <Section
        title={<Trans>Token API</Trans>}
        description={
          <Trans>
            Gli script e i sistemi esterni usano l'API REST con un token (intestazione Authorization: Bearer). Il token agisce a
            tuo nome con i soli permessi scelti, fino alla scadenza o alla revoca.
          </Trans>
        }
      >
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            <Trans>
              Documentazione dell'API:{' '}
              <Anchor href="/api/docs" target="_blank" rel="noreferrer" size="sm">
                /api/docs
              </Anchor>
            </Trans>
          </Text>
          <Button onClick={() => setCreating(true)}>
            <Trans>Nuovo token</Trans>
          </Button>
        </Group>
        {!data ? (
          <Loading />
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table verticalSpacing="sm" striped data-testid="api-tokens-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <Trans>Descrizione</Trans>
                  </Table.Th>
                  <Table.Th>
                    <Trans>Permessi</Trans>
                  </Table.Th>
                  <Table.Th>
                    <Trans>Scadenza</Trans>
                  </Table.Th>
                  <Table.Th>
                    <Trans>Creato</Trans>
                  </Table.Th>
                  <Table.Th>
                    <Trans>Ultimo uso</Trans>
                  </Table.Th>
                  <Table.Th>
                    <Trans>Stato</Trans>
                  </Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.map((row) => (
                  <Table.Tr key={row._key} data-testid={`api-token-${row._key}`} c={row.status === 'active' ? undefined : 'dimmed'}>
                    <Table.Td fw={500}>{row.description}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {parseScope(row.scope).map((s) => (
                          <Badge key={s} variant="light" size="sm" tt="none">
                            {i18n._(SCOPE_LABELS[s])}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(row.expiration)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {formatDate(row.created_at)}
                      <Text size="xs" c="dimmed">
                        {row.created_by_username}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.last_used ? formatDateTime(row.last_used) : '—'}</Table.Td>
                    <Table.Td>
                      <Badge color={statusColor[row.status]} variant={row.status === 'active' ? 'light' : 'outline'} tt="none">
                        {statusLabel[row.status]}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">
                      {row.status === 'active' && (
                        <Button size="compact-sm" variant="subtle" color="red" onClick={() => setRevoking(row)}>
                          <Trans>Revoca</Trans>
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
                {data.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={7}>
                      <Text c="dimmed" ta="center" py="md">
                        <Trans>Nessun token API</Trans>
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Section>
      <CreateTokenModal opened={creating} onClose={() => setCreating(false)} />
      <RevokeTokenModal token={revoking} onClose={() => setRevoking(null)} />
    </Stack>
  )
}

const DAY = 24 * 3_600_000
type Validity = '7' | '30' | '90' | '365' | 'custom'

/** A preset validity ends with the last millisecond of its local calendar day. */
function presetExpiration(days: number): number {
  const day = new Date(Date.now() + days * DAY)
  return new Date(day.getFullYear(), day.getMonth(), day.getDate(), 23, 59, 59, 999).getTime()
}

function CreateTokenModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t, i18n } = useLingui()
  const [description, setDescription] = useState('')
  const [validity, setValidity] = useState<Validity>('90')
  const [custom, setCustom] = useState('')
  // Checked once the field is left (or on submit), not while a date is half typed.
  const [customLeft, setCustomLeft] = useState(false)
  const [scopes, setScopes] = useState<Scope[]>([])
  const [tried, setTried] = useState(false)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [created, setCreated] = useState<ApiTokenCreated | null>(null)

  // A typed expiration (a date or a duration, SPEC 5) is sent as typed: the server reads it by
  // the same rule (src/expiration.ts); here it only previews the instant and checks it early.
  const read = validity === 'custom' ? expirationInstant(custom, new Date()) : { at: presetExpiration(Number(validity)) }
  const expiresAt = 'at' in read ? read.at : null
  const errors = {
    description: description.trim() ? null : t`Inserisci una descrizione`,
    expiration:
      validity === 'custom' && !custom.trim()
        ? t`Inserisci una scadenza`
        : expiresAt === null
          ? t`Scrivi una data (AAAA/MM/GG) o una durata come 30d, 12h, 10min, 1m (30 giorni), 1y (360 giorni)`
          : expiresAt <= Date.now()
            ? t`La scadenza deve essere nel futuro`
            : null,
    scopes: scopes.length ? null : t`Seleziona almeno un permesso`,
  }
  const valid = !errors.description && !errors.expiration && !errors.scopes

  function close() {
    // The list may show the new token's first use by now.
    if (created) void refresh()
    setDescription('')
    setValidity('90')
    setCustom('')
    setCustomLeft(false)
    setScopes([])
    setTried(false)
    setFailure(null)
    setCreated(null)
    onClose()
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setTried(true)
    setFailure(null)
    if (!valid) return
    setBusy(true)
    try {
      const expiration = validity === 'custom' ? custom : expiresAt
      const row = await trpcClient.apiTokens.create.mutate({ description: description.trim(), expiration, scope: scopes.join(' ') })
      setCreated(row)
      await refresh()
    } catch (err) {
      setFailure(errorMessage(toApiError(err)))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? <Trans>Token creato</Trans> : <Trans>Nuovo token API</Trans>}
      size="lg"
      closeOnClickOutside={!created}
    >
      {created ? (
        <Stack>
          <Alert color="yellow" title={<Trans>Copia il token adesso</Trans>}>
            <Trans>Per sicurezza viene mostrato solo questa volta: chiudendo la finestra non sarà più possibile leggerlo.</Trans>
          </Alert>
          <TokenSummary description={created.description} until={formatDate(created.expiration)} />
          <Code block data-testid="api-token-value" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap', fontSize: 14 }}>
            {created.token}
          </Code>
          <Group justify="space-between">
            <CopyButton value={created.token} timeout={2000}>
              {({ copied, copy }) => (
                <Button variant={copied ? 'light' : 'filled'} color={copied ? 'teal' : undefined} onClick={copy}>
                  {copied ? <Trans>Copiato</Trans> : <Trans>Copia token</Trans>}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={close}>
              <Trans>Ho copiato il token</Trans>
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <TextInput
              label={t`Descrizione`}
              description={t`A cosa serve il token, per riconoscerlo nell'elenco`}
              name="token-description"
              maxLength={API_TOKEN_DESCRIPTION_MAX}
              data-autofocus
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={tried && errors.description}
            />
            <Group align="flex-start" grow>
              <Select
                label={t`Validità`}
                name="token-validity"
                allowDeselect={false}
                data={[
                  { value: '7', label: t`7 giorni` },
                  { value: '30', label: t`30 giorni` },
                  { value: '90', label: t`90 giorni` },
                  { value: '365', label: t`1 anno` },
                  { value: 'custom', label: t`Data o durata…` },
                ]}
                value={validity}
                onChange={(v) => v && setValidity(v as Validity)}
              />
              {validity === 'custom' ? (
                <TextInput
                  label={t`Scadenza`}
                  name="token-expiration"
                  placeholder={t`AAAA/MM/GG o 30d, 12h, 1m, 1y`}
                  value={custom}
                  onChange={(e) => setCustom(e.currentTarget.value)}
                  onBlur={() => setCustomLeft(true)}
                  error={(tried || customLeft) && errors.expiration}
                  description={
                    expiresAt !== null && !errors.expiration ? <ExpiresAt at={formatDateTime(expiresAt)} /> : undefined
                  }
                />
              ) : (
                <TextInput label={t`Scadenza`} value={expiresAt ? formatDate(expiresAt) : ''} readOnly variant="filled" tabIndex={-1} />
              )}
            </Group>
            {validity === 'custom' && (
              <Text size="xs" c="dimmed">
                <Trans>
                  Una data (AAAA/MM/GG, valida fino a fine giornata) o una durata da adesso: s secondi, min minuti, h ore, d giorni, w
                  settimane, m mesi (30 giorni), y anni (360 giorni).
                </Trans>
              </Text>
            )}
            <Checkbox.Group
              label={t`Permessi del token`}
              description={t`Il token potrà fare solo ciò che questi permessi consentono`}
              value={scopes}
              onChange={(v) => setScopes(v as Scope[])}
              error={tried && errors.scopes}
            >
              <SimpleGrid cols={2} mt="xs" spacing="xs">
                {SCOPES.map((s) => (
                  <Checkbox key={s} value={s} label={i18n._(SCOPE_LABELS[s])} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
            {failure && (
              <Alert color="red" role="alert" title={<Trans>Impossibile creare il token API</Trans>}>
                {failure}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close} disabled={busy}>
                <Trans>Annulla</Trans>
              </Button>
              <Button type="submit" loading={busy}>
                <Trans>Crea token</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  )
}

function ExpiresAt({ at }: { at: string }) {
  return <Trans>Scade il {at}</Trans>
}

function TokenSummary({ description, until }: { description: string; until: string }) {
  return (
    <Text size="sm">
      <Trans>
        «{description}», valido fino al {until}
      </Trans>
    </Text>
  )
}

function RevokeTokenModal({ token, onClose }: { token: ApiTokenRow | null; onClose: () => void }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)

  async function revoke() {
    if (!token) return
    setBusy(true)
    try {
      await trpcClient.apiTokens.revoke.mutate({ key: token._key })
      await refresh()
      notifySuccess(t`Token revocato`)
      onClose()
    } catch (err) {
      notifyError(err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal opened={token !== null} onClose={onClose} title={<Trans>Revocare il token?</Trans>} centered>
      {token && (
        <Stack>
          <RevokeText description={token.description} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              <Trans>Annulla</Trans>
            </Button>
            <Button color="red" onClick={revoke} loading={busy}>
              <Trans>Revoca</Trans>
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  )
}

function RevokeText({ description }: { description: string }) {
  return (
    <Text>
      <Trans>Il token «{description}» smetterà subito di funzionare. L'operazione non si può annullare.</Trans>
    </Text>
  )
}
