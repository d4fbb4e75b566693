import { Trans } from '@lingui/react/macro'
import { Button, Center, Loader, Modal, Overlay, Paper, Stack, Text, Title } from '@mantine/core'

/**
 * No material left for the next piece (DOMAIN.md): the batch is done, nothing more can be
 * taken now. The operator chooses: pause the job (it can resume when material arrives) or end
 * the work session (the job pauses and the operator goes back to the job list).
 */
export function NoMaterialDialog({ opened, busy, onPause, onEndSession }: { opened: boolean; busy: boolean; onPause: () => void; onEndSession: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      size="lg"
      styles={{ header: { background: 'transparent' } }}
      title={
        <Text fw={700} size="xl">
          <Trans>Materiale esaurito</Trans>
        </Text>
      }
      data-testid="no-material-dialog"
    >
      <Stack>
        <Text size="lg">
          <Trans>Lotto completato. Non c'è materiale per il prossimo pezzo: la fase precedente non ne ha ancora rilasciato.</Trans>
        </Text>
        <Text size="md" c="dimmed">
          <Trans>Metti in pausa il job per riprenderlo quando arriva il materiale, oppure termina la sessione di lavoro e torna alla lista dei job.</Trans>
        </Text>
        <Stack gap="sm" mt="sm">
          <Button size="xl" h={60} color="yellow.4" c="black" onClick={onPause} loading={busy}>
            <Trans>Metti in pausa il job</Trans>
          </Button>
          <Button size="xl" h={60} variant="default" onClick={onEndSession} disabled={busy}>
            <Trans>Termina la sessione</Trans>
          </Button>
        </Stack>
      </Stack>
    </Modal>
  )
}

/** SPEC 8 "Job closed: 'redirecting'": the job's quantity is done; back to the job list. */
export function RedirectingOverlay() {
  return (
    <Overlay fixed blur={2} zIndex={300} backgroundOpacity={0.45}>
      <Center h="100%">
        <Paper withBorder shadow="xl" p="xl" miw={380} data-testid="job-closed">
          <Stack align="center" gap="sm">
            <Title order={2} c="green.8">
              <Trans>Job completato</Trans>
            </Title>
            <Loader size="md" />
            <Text size="lg" role="status">
              <Trans>Reindirizzamento…</Trans>
            </Text>
          </Stack>
        </Paper>
      </Center>
    </Overlay>
  )
}
