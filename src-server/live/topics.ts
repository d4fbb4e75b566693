import { LIVE_TOPIC_SCOPES, type LiveEvent, type LiveKeys, type LiveTopic } from '../../src/domains/live/schemas'

/** The PostgreSQL channel every instance LISTENs on. */
export const LIVE_CHANNEL = 'mes_live'

/** Events about users that are the operator queue (not the user record). */
const JOB_EVENTS_ON_OTHER_SUBJECTS = new Set(['OPERATOR_QUEUE_UPDATED', 'JOBS_REBALANCED'])

const TOPIC_OF_SUBJECT: Record<string, LiveTopic> = {
  job: 'jobs',
  queue: 'work_orders',
  work_order: 'work_orders',
  issue: 'issues',
  message: 'messages',
  product: 'library',
  tag: 'library',
  media: 'library',
  operation: 'library',
  form_field: 'library',
  serial_field: 'library',
  issue_type: 'library',
  counter: 'library',
  process: 'library',
  bom: 'library',
  serial: 'traceability',
}

/** The topic of an event: by its type where the subject says too little, else by its subject. */
export function topicOf(eventType: string, subjectType: string | null): LiveTopic {
  if (JOB_EVENTS_ON_OTHER_SUBJECTS.has(eventType)) return 'jobs'
  return (subjectType && TOPIC_OF_SUBJECT[subjectType]) || 'admin'
}

const KEY_FIELDS: [keyof LiveKeys, string][] = [
  ['work_order', 'work_order_key'],
  ['job', 'job_key'],
  ['operator', 'operator_key'],
  ['previous_operator', 'previous_operator_key'],
  ['context_type', 'context_type'],
  ['context_key', 'context_key'],
]

/** What a NOTIFY carries (and a replay rebuilds from the events row): small, no data values. */
export function liveEventOf(e: {
  id: number
  event_type: string
  subject_type?: string | null
  subject_key?: string | null
  data?: Record<string, unknown> | null
}): LiveEvent {
  const topic = topicOf(e.event_type, e.subject_type ?? null)
  const keys: LiveKeys = {}
  for (const [name, field] of KEY_FIELDS) {
    const value = e.data?.[field]
    // Keys only (uuids and short words): a long value never makes the payload big.
    if (typeof value === 'string' && value.length <= 100) keys[name] = value
  }
  if (e.subject_type === 'job' && e.subject_key) keys.job = e.subject_key
  if (e.subject_type === 'work_order' && e.subject_key) keys.work_order = e.subject_key
  return {
    id: e.id,
    type: e.event_type,
    topic,
    subject_type: e.subject_type ?? null,
    subject_key: e.subject_key ?? null,
    keys,
    scopes: LIVE_TOPIC_SCOPES[topic],
  }
}
