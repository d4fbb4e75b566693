import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Group, Paper, Stack, Table, Text } from '@mantine/core'
import type { inferRouterOutputs } from '@trpc/server'
import type { AppRouter } from '../../../src-server/trpc/app-router'
import type { StepSignature } from '../../../src/domains/process/steps'
import type { Change } from '../../../src/domains/revisions/diff'
import { SIGNATURE_MEANING_LABELS } from '../../lib/library-labels'
import { SCOPE_LABELS } from '../../lib/scope-labels'
import { wordDiff } from './word-diff'

/** The diff as tRPC answers it (attribute values may be absent once serialised). */
type RevisionDiff = inferRouterOutputs<AppRouter>['revisions']['diff']
type PhaseChange = RevisionDiff['phases'][number]
type StepChange = PhaseChange['steps'][number]
type BomChange = PhaseChange['bom'][number]
type AttributeChange = PhaseChange['attributes'][number]

const COLORS: Record<Change, string> = { added: 'teal', removed: 'red', changed: 'blue', unchanged: 'gray' }

/** Italian agrees with what changed: a phase or a bom line (feminine), a step or a form field (masculine). */
function ChangeBadge({ change, moved, masculine }: { change: Change; moved?: boolean; masculine?: boolean }) {
  const labels: Record<Change, React.ReactNode> = masculine
    ? { added: <Trans>Aggiunto</Trans>, removed: <Trans>Rimosso</Trans>, changed: <Trans>Modificato</Trans>, unchanged: null }
    : { added: <Trans>Aggiunta</Trans>, removed: <Trans>Rimossa</Trans>, changed: <Trans>Modificata</Trans>, unchanged: null }
  return (
    <Group gap={4}>
      {labels[change] && (
        <Badge size="sm" variant="light" color={COLORS[change]}>
          {labels[change]}
        </Badge>
      )}
      {moved && (
        <Badge size="sm" variant="light" color="violet">
          {masculine ? <Trans>Spostato</Trans> : <Trans>Spostata</Trans>}
        </Badge>
      )}
    </Group>
  )
}

/** Old and new wording side by side, the words that changed highlighted. */
function TextChange({ before, after }: { before: string; after: string }) {
  const parts = wordDiff(before, after)
  const side = (kind: 'removed' | 'added') => (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', flex: 1 }} data-testid={`step-text-${kind === 'removed' ? 'old' : 'new'}`}>
      {parts
        .filter((p) => p.kind === 'same' || p.kind === kind)
        .map((p, i) =>
          p.kind === 'same' ? (
            <span key={i}>{p.text}</span>
          ) : (
            <mark key={i} style={{ background: kind === 'removed' ? 'var(--mantine-color-red-1)' : 'var(--mantine-color-teal-1)', textDecoration: kind === 'removed' ? 'line-through' : undefined }}>
              {p.text}
            </mark>
          ),
        )}
    </Text>
  )
  return (
    <Group align="flex-start" gap="md" wrap="nowrap">
      {side('removed')}
      {side('added')}
    </Group>
  )
}

function StepRow({ step }: { step: StepChange }) {
  const { t, i18n } = useLingui()
  const signatureText = (sig: StepSignature | null): string => {
    if (!sig) return t`nessuna`
    const meaning = i18n._(SIGNATURE_MEANING_LABELS[sig.meaning])
    if (!sig.second_signer) return meaning
    const role = i18n._(SCOPE_LABELS[sig.second_signer])
    return t`${meaning}, secondo firmatario ${role}`
  }
  const side = step.to ?? step.from!
  const title = step.from && step.to && step.from.title !== step.to.title ? `${step.from.title} → ${step.to.title}` : side.title
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="step-change">
      <Group justify="space-between" mb={4}>
        <Text size="sm" fw={600}>
          {t`Passo ${side.position}`}
          {title ? `: ${title}` : ''}
        </Text>
        <ChangeBadge change={step.change} moved={step.moved} masculine />
      </Group>
      {step.from && step.to ? (
        step.from.text !== step.to.text && <TextChange before={step.from.text} after={step.to.text} />
      ) : (
        <Text size="sm" c={step.from ? 'red' : 'teal'} td={step.from ? 'line-through' : undefined} style={{ whiteSpace: 'pre-wrap' }}>
          {side.text}
        </Text>
      )}
      {step.from && step.to && step.from.fields.join() !== step.to.fields.join() && (
        <Text size="xs" c="dimmed">
          <Trans>Campi modulo cambiati</Trans>
        </Text>
      )}
      {step.from && step.to && step.from.media.join() !== step.to.media.join() && (
        <Text size="xs" c="dimmed">
          <Trans>Media cambiati</Trans>
        </Text>
      )}
      {step.from && step.to && JSON.stringify(step.from.signature) !== JSON.stringify(step.to.signature) && (
        <Text size="xs" c="dimmed" data-testid="step-signature-change">
          <Trans>
            Firma: {signatureText(step.from.signature)} → {signatureText(step.to.signature)}
          </Trans>
        </Text>
      )}
    </Paper>
  )
}

const shown = (value: unknown): string => (value === null || value === undefined || value === '' ? '—' : typeof value === 'string' ? value : JSON.stringify(value))

function AttributeRows({ attributes }: { attributes: AttributeChange[] }) {
  const { t } = useLingui()
  const names: Record<string, string> = {
    name: t`Nome`,
    operation: t`Operazione`,
    department: t`Reparto`,
    production_notes: t`Note di produzione`,
    print_templates: t`Modelli di stampa`,
    traceability_level: t`Tracciabilità`,
    counter: t`Contatore`,
  }
  const label = (a: string) => names[a] ?? (a.startsWith('parameters.') ? t`Parametro ${a.slice('parameters.'.length)}` : a)
  return (
    <Table withTableBorder fz="sm">
      <Table.Tbody>
        {attributes.map((a) => (
          <Table.Tr key={a.attribute}>
            <Table.Td fw={600}>{label(a.attribute)}</Table.Td>
            <Table.Td c="red">{shown(a.from)}</Table.Td>
            <Table.Td c="teal">{shown(a.to)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

function BomRows({ lines }: { lines: BomChange[] }) {
  const { i18n } = useLingui()
  const side = (s: BomChange['from']) => (s ? `${i18n.number(s.quantity)}${s.declared_serials ? ' · S/N' : ''}` : '—')
  return (
    <Table withTableBorder fz="sm" data-testid="bom-changes">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>
            <Trans>Componente</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Prima</Trans>
          </Table.Th>
          <Table.Th>
            <Trans>Dopo</Trans>
          </Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {lines.map((l) => (
          <Table.Tr key={l.item_key}>
            <Table.Td>
              {l.item_code} <Text span c="dimmed" size="xs">{l.item_description}</Text>
            </Table.Td>
            <Table.Td>{side(l.from)}</Table.Td>
            <Table.Td>{side(l.to)}</Table.Td>
            <Table.Td>
              <ChangeBadge change={l.change} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

function PhaseCard({ phase }: { phase: PhaseChange }) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid="phase-change">
      <Group justify="space-between" mb="xs">
        <Text fw={700}>
          {phase.position.to ?? phase.position.from}. {phase.name}
        </Text>
        <Group gap="xs">
          {phase.moved && (
            <Text size="xs" c="dimmed">
              <Trans>
                posizione {phase.position.from} → {phase.position.to}
              </Trans>
            </Text>
          )}
          <ChangeBadge change={phase.change} moved={phase.moved} />
        </Group>
      </Group>
      <Stack gap="xs">
        {phase.attributes.length > 0 && <AttributeRows attributes={phase.attributes} />}
        {phase.steps.map((s) => (
          <StepRow key={s.key} step={s} />
        ))}
        {phase.bom.length > 0 && <BomRows lines={phase.bom} />}
      </Stack>
    </Paper>
  )
}

/** What changed between two sides of a comparison: phases, their steps and bom lines, field definitions. */
export function RevisionDiffView({ diff }: { diff: RevisionDiff }) {
  if (!diff.changed)
    return (
      <Text c="dimmed" data-testid="diff-empty">
        <Trans>Nessuna differenza.</Trans>
      </Text>
    )
  return (
    <Stack gap="sm" data-testid="revision-diff">
      {diff.phases
        .filter((p) => p.change !== 'unchanged' || p.moved)
        .map((p) => (
          <PhaseCard key={p.lineage} phase={p} />
        ))}
      {diff.fields.map((f) => (
        <Paper key={f.key} withBorder p="sm" radius="md">
          <Group justify="space-between" mb="xs">
            <Text fw={700}>
              <Trans>Campo modulo {f.name}</Trans>
            </Text>
            <ChangeBadge change={f.change} masculine />
          </Group>
          <AttributeRows attributes={f.attributes} />
        </Paper>
      ))}
    </Stack>
  )
}
