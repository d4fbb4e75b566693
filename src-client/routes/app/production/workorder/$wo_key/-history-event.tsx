import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Stack, Text } from '@mantine/core'
import type { ReactNode } from 'react'
import type { HistoryCategory } from '../../../../../../src/domains/work-orders/history'
import type { HistoryEntry, WorkOrderDetail } from '../../../../../../src/domains/work-orders/schemas'
import { STATUS_LABELS } from '../-workorder-ui'

/** Readable names of the events a work order, its jobs, its issues and its threads record. */
export const EVENT_LABELS: Record<string, MessageDescriptor> = {
  WORK_ORDER_CREATED: msg`Ordine di lavoro creato`,
  WORK_ORDER_UPDATED: msg`Ordine di lavoro modificato`,
  WORK_ORDER_QUANTITY_CHANGED: msg`Quantità cambiata`,
  WORK_ORDER_CLOSED: msg`Ordine di lavoro chiuso`,
  WORK_ORDER_REOPENED: msg`Ordine di lavoro riaperto`,
  WORK_ORDER_COMPLETED: msg`Ordine di lavoro completato`,
  WORK_ORDER_ARCHIVED: msg`Archiviato`,
  WORK_ORDER_RESTORED: msg`Ripristinato dall'archivio`,
  WORK_ORDER_QUEUE_MOVED: msg`Spostato nella coda di stabilimento`,
  JOBS_REBALANCED: msg`Job ribilanciati`,
  JOB_ASSIGNED: msg`Job assegnato`,
  JOB_UNASSIGNED: msg`Job non più assegnato`,
  JOB_STARTED: msg`Job avviato`,
  JOB_PAUSED: msg`Job in pausa`,
  JOB_PAUSE_FORCED: msg`Job messo in pausa d'ufficio`,
  JOB_RESUMED: msg`Job ripreso`,
  JOB_CLOSED: msg`Job chiuso`,
  JOB_PROGRESS_RESET: msg`Avanzamento del job azzerato`,
  JOB_PROGRESS_UPDATED: msg`Avanzamento del job corretto`,
  JOB_TIMES_UPDATED: msg`Tempi del job corretti`,
  JOB_ACTIVE_PIECES_CANCELLED: msg`Pezzi in lavorazione annullati`,
  ACTIVE_BATCH_CHANGED: msg`Lotto attivo cambiato`,
  BATCH_COMPLETED: msg`Lotto completato`,
  STEP_COMPLETED: msg`Passo completato`,
  STEP_SIGNED: msg`Passo firmato`,
  RECORD_SIGNED: msg`Firma registrata`,
  STEP_EDITED: msg`Passo modificato`,
  SERIAL_TEMP_LINKS_SAVED: msg`Seriali del lotto salvati`,
  BACK_ONLINE: msg`Di nuovo in linea`,
  ISSUE_OPENED: msg`Segnalazione aperta`,
  ISSUE_UPDATED: msg`Segnalazione modificata`,
  ISSUE_CLOSED: msg`Segnalazione chiusa`,
  ISSUE_REOPENED: msg`Segnalazione riaperta`,
  ISSUE_REOPENED_CRITICAL: msg`Segnalazione riaperta come critica`,
  ISSUE_MADE_CRITICAL: msg`Segnalazione resa critica`,
  ISSUE_MADE_NON_CRITICAL: msg`Segnalazione resa non critica`,
  ISSUE_ESCALATED: msg`Segnalazione diventata critica per tempo scaduto`,
  ISSUE_ATTACHMENT_ADDED: msg`Allegato aggiunto alla segnalazione`,
  ISSUE_DELETED: msg`Segnalazione eliminata`,
  MESSAGE_POSTED: msg`Messaggio scritto`,
  MESSAGE_UPDATED: msg`Messaggio modificato`,
  MESSAGE_DELETED: msg`Messaggio eliminato`,
}

export const CATEGORY_LABELS: Record<HistoryCategory, MessageDescriptor> = {
  work_order: msg`Ordine di lavoro`,
  execution: msg`Lavorazione`,
  corrections: msg`Correzioni`,
  assignment: msg`Assegnazioni`,
  issues: msg`Segnalazioni`,
  messages: msg`Messaggi`,
}

/** Why a job stopped: the operator's reasons (SPEC 4) and the server's. */
const PAUSE_REASONS: Record<string, MessageDescriptor> = {
  user: msg`pausa dell'operatore`,
  no_material: msg`materiale esaurito`,
  end_session: msg`fine della sessione di lavoro`,
  leave_page: msg`uscita dalla pagina del job`,
  sign_out: msg`uscita dall'applicazione`,
  session_locked: msg`sessione bloccata`,
  offline: msg`assenza di rete oltre il limite della fase`,
  paused_by_production: msg`messo in pausa dalla produzione`,
  closed: msg`job completato`,
}

const FIELD_LABELS: Record<string, MessageDescriptor> = {
  line: msg`Linea`,
  notes: msg`Note`,
  start_from: msg`Inizio da`,
  due_by: msg`Consegna entro`,
}

type Data = Record<string, unknown>
const asNumber = (x: unknown) => (typeof x === 'number' ? x : null)
const asList = (x: unknown) => (Array.isArray(x) ? (x as Data[]) : [])
const asChange = (x: unknown) => (x && typeof x === 'object' ? (x as { from?: unknown; to?: unknown }) : {})
const short = (x: unknown) => {
  if (x === null || x === undefined || x === '') return '—'
  const s = String(x)
  return s.length > 60 ? `${s.slice(0, 57)}…` : s
}

/** Working time as h:mm:ss. */
export function clock(msValue: unknown): string {
  const total = typeof msValue === 'number' && Number.isFinite(msValue) ? Math.max(0, Math.round(msValue / 1000)) : null
  if (total === null) return '—'
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`
}

/** "2. Collaudo" for a phase of this work order. */
export function phasePlace(wo: WorkOrderDetail, phaseKey: string | null): string | null {
  const p = wo.phases.find((ph) => ph._key === phaseKey)
  return p ? `${p.position}. ${p.name}` : null
}

const Line = ({ children }: { children: ReactNode }) => (
  <Text size="sm" c="dimmed" data-testid="history-detail">
    {children}
  </Text>
)

/** What production wrote when pausing or reassigning a job (issue 26), as typed. */
function TypedReason({ data }: { data: Data }) {
  if (typeof data.reason_text !== 'string' || data.reason_text === '') return null
  const text = data.reason_text
  return (
    <Line>
      <Trans>Motivo indicato: «{text}»</Trans>
    </Line>
  )
}

/** What the event's data says, in words: reasons, quantities, steps, corrections from -> to, who. */
export function EventDetail({ event, wo }: { event: HistoryEntry; wo: WorkOrderDetail }) {
  const { t, i18n } = useLingui()
  const d = event.data as Data
  const who = (key: unknown) => (typeof key === 'string' ? (event.names[key] ?? t`utente sconosciuto`) : t`nessuno`)
  const reasonOf = (x: unknown) => (typeof x === 'string' ? (PAUSE_REASONS[x] ? i18n._(PAUSE_REASONS[x]) : x) : '—')
  const step = typeof d.step_key === 'string' ? (event.names[d.step_key] ?? t`passo non più nel processo`) : null
  switch (event.event_type) {
    case 'WORK_ORDER_CREATED': {
      const jobs = asList(d.jobs)
      const assigned = jobs.filter((j) => j.operator_key).length
      return (
        <Line>
          <Trans>
            {short(d.quantity)} pezzi di {short(d.product_code)}; <Plural value={jobs.length} one="# job" other="# job" />, {assigned} assegnati
          </Trans>
        </Line>
      )
    }
    case 'WORK_ORDER_UPDATED': {
      const changes = (d.changes ?? {}) as Record<string, { from: unknown; to: unknown }>
      return (
        <Stack gap={0}>
          {Object.entries(changes).map(([field, c]) => (
            <Line key={field}>
              {FIELD_LABELS[field] ? i18n._(FIELD_LABELS[field]) : field}: {short(c.from)} → {short(c.to)}
            </Line>
          ))}
        </Stack>
      )
    }
    case 'WORK_ORDER_QUANTITY_CHANGED': {
      const before = (d.before ?? {}) as Data
      const after = (d.after ?? {}) as Data
      const added = asList(after.jobs).filter((j) => j.new).length
      if (before.quantity === after.quantity) {
        return (
          <Line>
            <Trans>
              Stessa quantità ({short(after.quantity)} pezzi), distribuzione tra i job cambiata; <Plural value={added} one="# nuovo job" other="# nuovi job" />
            </Trans>
          </Line>
        )
      }
      return (
        <Line>
          <Trans>
            Da {short(before.quantity)} a {short(after.quantity)} pezzi; <Plural value={added} one="# nuovo job" other="# nuovi job" />
          </Trans>
        </Line>
      )
    }
    case 'WORK_ORDER_CLOSED':
      return (
        <Line>
          <Plural value={asList(d.jobs_closed).length} one="# job chiuso" other="# job chiusi" />
        </Line>
      )
    case 'WORK_ORDER_REOPENED':
      return d.reason === 'quantity' ? (
        <Line>
          <Trans>La quantità è cresciuta oltre quella completata</Trans>
        </Line>
      ) : (
        <Line>
          <Plural value={asList(d.jobs_reopened).length} one="# job riaperto" other="# job riaperti" />
        </Line>
      )
    case 'WORK_ORDER_COMPLETED':
      return (
        <Line>
          <Trans>
            {short(asNumber(d.completed_qt))} di {short(asNumber(d.planned_qt))} pezzi completati
          </Trans>
        </Line>
      )
    case 'WORK_ORDER_ARCHIVED': {
      const status = d.status === 'completed' || d.status === 'closed' ? i18n._(STATUS_LABELS[d.status]) : short(d.status)
      return (
        <Line>
          <Trans>Stato: {status}</Trans>
        </Line>
      )
    }
    case 'WORK_ORDER_QUEUE_MOVED': {
      const p = asChange(d.position)
      return (
        <Line>
          <Trans>
            Posizione in coda: {short(p.from)} → {short(p.to)} (su {short(d.total)})
          </Trans>
        </Line>
      )
    }
    case 'JOB_ASSIGNED':
    case 'JOB_UNASSIGNED': {
      const before = d.previous_operator_key ? who(d.previous_operator_key) : t`nessuno`
      const after = d.operator_key ? who(d.operator_key) : t`nessuno`
      return (
        <Stack gap={0}>
          <Line>
            <Trans>
              Operatore: {before} → {after}
            </Trans>
          </Line>
          <TypedReason data={d} />
        </Stack>
      )
    }
    case 'JOBS_REBALANCED': {
      const before = new Map(asList(d.before).map((j) => [j.job_key, j]))
      const place = phasePlace(wo, typeof d.phase_key === 'string' ? d.phase_key : null) ?? '—'
      return (
        <Stack gap={0}>
          <Line>
            <Trans>
              Fase {place}: {short(d.total)} pezzi in tutto
            </Trans>
          </Line>
          {asList(d.changed).map((c) => {
            const b = before.get(c.job_key)
            const fromQt = short(b?.quantity)
            const toQt = short(c.quantity)
            const fromOp = b?.operator_key ? who(b.operator_key) : t`nessuno`
            const toOp = c.operator_key ? who(c.operator_key) : t`nessuno`
            return (
              <Line key={String(c.job_key)}>
                <Trans>
                  Job: {fromQt} → {toQt} pezzi, operatore {fromOp} → {toOp}
                </Trans>
              </Line>
            )
          })}
          {asList(d.created).map((c) => {
            const qt = short(c.quantity)
            const op = c.operator_key ? who(c.operator_key) : t`nessuno`
            return (
              <Line key={String(c.job_key)}>
                <Trans>
                  Nuovo job: {qt} pezzi a {op}
                </Trans>
              </Line>
            )
          })}
          {asList(d.removed).length > 0 && (
            <Line>
              <Plural value={asList(d.removed).length} one="# job tolto" other="# job tolti" />
            </Line>
          )}
        </Stack>
      )
    }
    case 'JOB_PAUSED':
    case 'JOB_PAUSE_FORCED': {
      const reason = reasonOf(d.reason)
      const session = clock(d.duration_ms ?? d.elapsed_ms)
      return (
        <Stack gap={0}>
          <Line>
            <Trans>
              Motivo: {reason}; sessione di lavoro di {session}
            </Trans>
          </Line>
          <TypedReason data={d} />
        </Stack>
      )
    }
    case 'JOB_CLOSED':
      return (
        <Line>
          <Trans>{short(d.completed_qt)} pezzi completati</Trans>
        </Line>
      )
    case 'ACTIVE_BATCH_CHANGED':
      return d.batch_key ? (
        <Line>
          <Trans>
            Lotto n. {short(d.batch_number)} aperto: {short(d.qt_total)} pezzi
          </Trans>
        </Line>
      ) : (
        <Line>
          <Trans>Nessun lotto aperto</Trans>
        </Line>
      )
    case 'BATCH_COMPLETED':
      return (
        <Line>
          <Trans>
            {short(d.qt_total)} pezzi nel lotto; {short(d.job_completed_qt)} completati nel job, {short(d.released_qt)} rilasciati alla fase successiva
          </Trans>
        </Line>
      )
    case 'RECORD_SIGNED': {
      const signer = short(d.full_name)
      return (
        <Line>
          <Trans>Firma di {signer}</Trans>
        </Line>
      )
    }
    case 'STEP_SIGNED': {
      const signer = short(d.full_name)
      return (
        <Line>
          <Trans>
            Passo: {step}; firma di {signer}
          </Trans>
        </Line>
      )
    }
    case 'STEP_COMPLETED':
      return (
        <Line>
          <Trans>Passo: {step}</Trans>
        </Line>
      )
    case 'STEP_EDITED': {
      const fields = asList(d.fields).length
      return (
        <Line>
          <Trans>
            Passo: {step}; <Plural value={fields} one="# campo modificato" other="# campi modificati" />
          </Trans>
        </Line>
      )
    }
    case 'JOB_PROGRESS_RESET':
    case 'JOB_PROGRESS_UPDATED': {
      const c = asChange(d.completed_qt)
      return (
        <Line>
          <Trans>
            Pezzi completati: {short(c.from)} → {short(c.to)}
          </Trans>
        </Line>
      )
    }
    case 'JOB_TIMES_UPDATED': {
      const c = asChange(d.time_spent_ms)
      const from = clock(c.from)
      const to = clock(c.to)
      return (
        <Line>
          <Trans>
            Tempo di lavoro: {from} → {to}
          </Trans>
        </Line>
      )
    }
    case 'JOB_ACTIVE_PIECES_CANCELLED':
      return (
        <Line>
          <Plural value={asNumber(d.pieces) ?? 0} one="# pezzo annullato" other="# pezzi annullati" />
        </Line>
      )
    case 'BACK_ONLINE': {
      const gap = clock(d.offline_ms)
      return (
        <Line>
          <Trans>Senza rete per {gap}</Trans>
        </Line>
      )
    }
    default:
      break
  }
  if (event.subject_type === 'issue') {
    const code = event.issue?.code ?? short(d.code)
    const title = event.issue?.title ?? (typeof d.title === 'string' ? d.title : null)
    return <Line>{title ? `${code} — ${title}` : code}</Line>
  }
  if (event.subject_type === 'message') {
    return <Line>{event.thread === 'job' ? <Trans>Nel thread del job</Trans> : <Trans>Nel thread dell'ordine di lavoro</Trans>}</Line>
  }
  return null
}
