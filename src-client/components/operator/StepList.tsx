import { Trans } from '@lingui/react/macro'
import { Group, ScrollArea, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core'

export type StepItem = {
  _key: string
  index: number
  title: string
  type: 'instruction' | 'form'
  done: boolean
  /** Forced order: earlier steps are not done yet. */
  locked: boolean
  /** A form with mandatory fields still empty. */
  mandatoryMissing: boolean
  /** The serial step of a batch whose pieces' serials are not all declared yet. */
  serialsMissing?: boolean
}

/** The batch's steps in order: done ones checked, the selected one highlighted, locked ones greyed. */
export function StepList({ steps, selected, onSelect }: { steps: StepItem[]; selected: string | null; onSelect: (key: string) => void }) {
  return (
    <ScrollArea.Autosize mah="calc(100vh - 330px)" type="auto" offsetScrollbars>
      <Stack gap={6} data-testid="step-list">
        {steps.map((s) => {
          const active = s._key === selected
          return (
            <UnstyledButton
              key={s._key}
              onClick={() => onSelect(s._key)}
              disabled={s.locked}
              aria-current={active ? 'step' : undefined}
              data-testid={`step-${s.index + 1}`}
              data-done={s.done || undefined}
              mih={56}
              px="sm"
              py={6}
              style={{
                borderRadius: 8,
                border: `2px solid ${active ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-default-border)'}`,
                background: active ? 'var(--mantine-color-teal-light)' : 'var(--mes-surface-1)',
                opacity: s.locked ? 0.5 : 1,
                cursor: s.locked ? 'not-allowed' : 'pointer',
              }}
            >
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon size={36} radius="xl" color={s.done ? 'green.8' : active ? 'teal' : 'gray'} variant={s.done || active ? 'filled' : 'light'}>
                  {s.done ? '✓' : s.locked ? <LockIcon /> : s.index + 1}
                </ThemeIcon>
                <div style={{ minWidth: 0 }}>
                  <Text fw={600} size="md" lineClamp={2}>
                    {s.title || <Trans>Passo {s.index + 1}</Trans>}
                  </Text>
                  <Text size="xs" c={s.mandatoryMissing || s.serialsMissing ? 'red.7' : 'dimmed'} data-testid={s.serialsMissing ? 'step-serials-missing' : undefined}>
                    {s.type === 'form' ? <Trans>Modulo</Trans> : <Trans>Istruzione</Trans>}
                    {s.mandatoryMissing && (
                      <>
                        {' · '}
                        <Trans>campi obbligatori da compilare</Trans>
                      </>
                    )}
                    {s.serialsMissing && (
                      <>
                        {' · '}
                        <Trans>seriali da dichiarare</Trans>
                      </>
                    )}
                  </Text>
                </div>
              </Group>
            </UnstyledButton>
          )
        })}
      </Stack>
    </ScrollArea.Autosize>
  )
}

/** A padlock (no emoji font on many tablets). */
function LockIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" aria-hidden>
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </svg>
  )
}
