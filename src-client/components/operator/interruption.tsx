import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Modal, Stack, Text } from '@mantine/core'
import type { Interruption } from '../../../src/domains/execution/schemas'
import { formatDate } from '../../../src/i18n/format'

const pad = (n: number) => String(n).padStart(2, '0')

/**
 * Who stopped the job, when and why, in one sentence (issue 26): "In pausa da Mario Rossi
 * (produzione) alle 14:03: cambio stampo", or whose the job is now after a reassignment. The time
 * is the server's, shown in the tablet's clock; another day adds the date.
 */
export function useInterruptionText(): (i: Interruption, me: string) => string {
  const { t } = useLingui()
  return (i, me) => {
    const d = new Date(i.at)
    const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`
    const day = formatDate(d)
    const today = day === formatDate(new Date())
    const by = i.by_name
    const when = today ? t`alle ${time}` : t`il ${day} alle ${time}`
    const operator = i.operator_name ?? ''
    const what =
      i.kind === 'paused'
        ? t`In pausa da ${by} (produzione) ${when}`
        : i.operator_key === me
          ? t`Assegnato a te da ${by} (produzione) ${when}`
          : i.operator_key === null
            ? t`Il job non è più assegnato a nessuno: tolto da ${by} (produzione) ${when}`
            : t`Il job ora è di ${operator}: riassegnato da ${by} (produzione) ${when}`
    return i.reason ? `${what}: ${i.reason}` : `${what}.`
  }
}

/** The sentence as a line of its own (the read-only banner, the refusal of a job taken away). */
export function InterruptionLine({ interruption, me }: { interruption: Interruption; me: string }) {
  const text = useInterruptionText()
  return (
    <Text size="md" fw={600} data-testid="interruption" data-kind={interruption.kind}>
      {text(interruption, me)}
    </Text>
  )
}

/**
 * "Riprendi" on a job someone else paused (or gave to this operator): the operator confirms,
 * reading who stopped it and why, so a job stopped on purpose is not resumed by habit. A pause
 * the operator made themselves resumes at once (the view then carries no interruption).
 */
export function ResumeConfirmDialog({
  interruption,
  me,
  opened,
  onCancel,
  onConfirm,
}: {
  interruption: Interruption | null
  me: string
  opened: boolean
  onCancel: () => void
  onConfirm: () => void
}) {
  const text = useInterruptionText()
  return (
    <Modal
      opened={opened && interruption !== null}
      onClose={onCancel}
      centered
      size="lg"
      title={
        <Text fw={700} size="xl">
          <Trans>Riprendere il job?</Trans>
        </Text>
      }
      data-testid="resume-confirm-dialog"
    >
      <Stack>
        {interruption && (
          <Text size="lg" data-testid="resume-confirm-reason">
            {text(interruption, me)}
          </Text>
        )}
        <Text size="md" c="dimmed">
          <Trans>Controlla che il motivo sia risolto prima di riprendere il lavoro.</Trans>
        </Text>
        <Group grow mt="sm">
          <Button size="xl" h={60} variant="default" onClick={onCancel} data-testid="resume-cancel">
            <Trans>Annulla</Trans>
          </Button>
          <Button size="xl" h={60} color="green.8" onClick={onConfirm} data-testid="resume-confirm">
            <Trans>Riprendi</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
