import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Button, Group, Paper, Text, Title } from '@mantine/core'
import { useMutation } from '@tanstack/react-query'
import type { ChainCheck } from '../../../../src/domains/audit/schemas'
import { LoadError } from '../../../components/QueryState'
import { trpcClient } from '../../../lib/trpc'

/** "Verifica la catena": walks every event's link and hash on the server and says what it found. */
export function ChainCheckPanel() {
  const { t, i18n } = useLingui()
  const check = useMutation({ mutationFn: () => trpcClient.audit.chain.query() })
  const reasons: Record<Extract<ChainCheck, { ok: false }>['first_break']['reason'], string> = {
    changed: t`modificato dopo la registrazione`,
    missing: t`rimosso`,
    relinked: t`catena ricostruita attorno ad esso`,
    unchained: t`registrato fuori dalla catena`,
    head: t`la testa della catena non corrisponde all'ultimo anello`,
  }
  const result = check.data
  return (
    <Paper withBorder p="md" radius="md" data-testid="chain-check">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={4}>
            <Trans>Integrità del registro</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>Ogni evento porta l'impronta (SHA-256) del precedente: una modifica o una cancellazione fuori dall'applicazione interrompe la catena.</Trans>
          </Text>
        </div>
        <Button variant="default" loading={check.isPending} onClick={() => check.mutate()}>
          <Trans>Verifica la catena</Trans>
        </Button>
      </Group>
      {check.error && <LoadError error={check.error} />}
      {result?.ok === true && (
        <Alert color="green" mt="sm" data-testid="chain-verdict">
          <Trans>Catena integra: {result.events.toLocaleString(i18n.locale)} eventi</Trans>
          {result.pending > 0 && (
            <Text size="sm" c="dimmed">
              <Trans>{result.pending.toLocaleString(i18n.locale)} eventi appena registrati in attesa di concatenamento (pochi istanti).</Trans>
            </Text>
          )}
        </Alert>
      )}
      {result?.ok === false && (
        <Alert color="red" mt="sm" data-testid="chain-verdict">
          {result.first_break.event_id === null ? (
            <Trans>
              Catena interrotta all'anello n. {result.first_break.seq}: {reasons[result.first_break.reason]}
            </Trans>
          ) : (
            <Trans>
              Catena interrotta all'anello n. {result.first_break.seq} (evento {result.first_break.event_id}): {reasons[result.first_break.reason]}
            </Trans>
          )}
        </Alert>
      )}
    </Paper>
  )
}
