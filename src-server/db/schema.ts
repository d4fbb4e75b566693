import type { ColumnType, Generated, Insertable, Kysely, Selectable } from 'kysely'
import type { Step } from '../../src/domains/process/steps'
import type { PhaseParameters } from '../../src/domains/process/phase-parameters'
import type { RevisionField } from '../../src/domains/revisions/schemas'

type Timestamp = ColumnType<Date, Date | string, Date | string>
type CreatedAt = ColumnType<Date, Date | string | undefined, never>

export interface UsersTable {
  id: Generated<string>
  username: string
  name: Generated<string>
  surname: Generated<string>
  email: string | null
  department_id: string | null
  hourly_cost: number | null
  scope: string
  enabled: Generated<boolean>
  archived_at: Timestamp | null
  password_hash: string
  /** argon2id hash of the personal signing PIN (docs/signatures.md); null: none set. */
  pin_hash: string | null
  /** What the user's badge scanner types; unique. */
  badge: string | null
  must_change_password: Generated<boolean>
  preferences: ColumnType<Record<string, unknown>, string | undefined, string>
  image_path: string | null
  created_at: CreatedAt
  last_login_at: Timestamp | null
}

export interface AuthSessionsTable {
  id: string
  secret_hash: Uint8Array
  user_id: string
  created_at: Timestamp
  expires_at: Timestamp
  absolute_expires_at: Timestamp
  last_activity_at: Timestamp
  locked: Generated<boolean>
  ended_at: Timestamp | null
  ip: string | null
  user_agent: string | null
}

export interface ApiTokensTable {
  id: string
  secret_hash: Uint8Array
  description: string
  scope: string
  expires_at: Timestamp
  created_by: string
  created_at: Timestamp
  revoked_at: Timestamp | null
  last_used_at: Timestamp | null
}

/** Failed sign-in counters (src-server/auth/throttle.ts): `pair:<source> <account>`, `account:<account>`, `source:<source>`. */
export interface LoginThrottleTable {
  key: string
  failures: number
  window_started_at: Timestamp
  last_failure_at: Timestamp
}

export interface EventsTable {
  id: Generated<number>
  event_type: string
  user_id: string | null
  session_id: string | null
  created_at: CreatedAt
  subject_type: string | null
  subject_key: string | null
  data: ColumnType<Record<string, unknown>, string | undefined, never>
  /** The writing transaction (xid8 as text), set by the database; the chainer's order (docs/audit.md). Null before 2026-11-29. */
  xid: ColumnType<string | null, never, never>
}

/** Electronic signatures, append-only (migrations/2026-11-28-70-signatures.ts, docs/signatures.md). */
export interface SignaturesTable {
  id: string
  subject_type: string
  subject_key: string
  work_order_id: string | null
  meaning: 'performed' | 'verified' | 'approved'
  role: 'signer' | 'second_signer'
  required_scope: string | null
  user_id: string
  full_name: string
  signed_at: Timestamp
  content_hash: string
}

/** One link of the event chain per event, numbered in commit order (migrations/2026-11-28-02-event-chain.ts). */
export interface EventChainTable {
  seq: number
  event_id: number
  prev_hash: string
  hash: string
  chained_at: ColumnType<Date, never, never>
}

export interface EventChainHeadTable {
  one: ColumnType<boolean, never, never>
  seq: number
  hash: string
  /** The chainer's watermark (xid8 as text): every transaction below it had ended when a round looked. */
  watermark: ColumnType<string, never, never>
}

export interface FlowsTable {
  id: Generated<string>
  name: string
  url: string
  secret: string
  event_types: string[]
  active: Generated<boolean>
  created_at: CreatedAt
  updated_at: Timestamp
}

export type FlowDeliveryStatus = 'pending' | 'delivered' | 'failed'
export interface FlowDeliveriesTable {
  id: string
  seq: Generated<number>
  flow_id: string
  event_id: number | null
  event_type: string
  body: string
  status: Generated<FlowDeliveryStatus>
  attempts: Generated<number>
  last_status_code: number | null
  last_error: string | null
  last_attempt_at: Timestamp | null
  next_attempt_at: Timestamp | null
  delivered_at: Timestamp | null
  queued: Generated<boolean>
  created_at: CreatedAt
  retry_from: Timestamp
}

export interface ImportRunsTable {
  idempotency_key: string
  user_id: string
  kind: string
  request_hash: string
  response: ColumnType<unknown, string, string>
  created_at: CreatedAt
}

export interface SettingsTable {
  key: string
  value: ColumnType<unknown, string, string>
}

export interface DepartmentsTable {
  id: Generated<string>
  code: string
  name: string
  created_at: CreatedAt
}

// Admin libraries (migration 2026-11-21-03): media, form fields, operations, issue types.
export interface MediaTable {
  id: Generated<string>
  filename: string
  content_type: string
  size: number
  storage_key: string
  created_by: string | null
  created_at: CreatedAt
}

export interface FormFieldsTable {
  id: Generated<string>
  name: string
  type: string
  options: ColumnType<string[], string | undefined, string>
  multiple: Generated<boolean>
  mandatory: Generated<boolean>
  help_text: Generated<string>
  archived_at: Timestamp | null
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface OperationsTable {
  id: Generated<string>
  name: string
  default_phase_steps: ColumnType<Step[], string | undefined, string>
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface IssueTypesTable {
  id: Generated<string>
  code: string
  name: string
  close_within_hours: Generated<number>
  critical: Generated<boolean>
  link_type: Generated<string>
  print_templates: ColumnType<string[], string | undefined, string>
  active: Generated<boolean>
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export type CounterFrequency = 'never' | 'year' | 'month' | 'week' | 'day'

export interface CountersTable {
  id: Generated<string>
  name: string
  template: string
  frequency: ColumnType<CounterFrequency, CounterFrequency | undefined, CounterFrequency>
  next_value: ColumnType<number, number | undefined, number>
  /** 'YYYY-MM-DD' (plant time zone): first day of the period next_value belongs to; null = never resets. */
  period_start: string | null
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>
type Json<T> = ColumnType<T, string | undefined, string>

export interface ProductsTable {
  id: Generated<string>
  code: string
  description: Generated<string>
  active: Generated<boolean>
  trashed_at: Timestamp | null
  notes: Generated<string>
  minimum_order: number | null
  technical_batch: number | null
  image_path: string | null
  metadata: Json<{ custom_field_key: string; value: unknown }[]>
  print_templates: Json<string[]>
  created_at: CreatedAt
  updated_at: UpdatedAt
}

export interface ProductDocsTable {
  id: Generated<string>
  product_id: string
  name: string
  storage_key: string
  content_type: string
  size: number
  uploaded_by: string | null
  /** Replacing a document (same name) updates it. */
  uploaded_at: UpdatedAt
}

export interface TagsTable {
  id: Generated<string>
  name: string
  created_at: CreatedAt
}

export interface TagLinksTable {
  tag_id: string
  context: string
  context_key: string
}

export interface ProductPhasesTable {
  id: Generated<string>
  product_id: string
  position: number
  name: string
  operation_id: string
  department_id: string | null
  parameters: Json<PhaseParameters>
  steps: Json<Step[]>
  production_notes: Generated<string>
  print_templates: Json<string[]>
  created_at: CreatedAt
  updated_at: UpdatedAt
  traceability_level: Generated<'none' | 'form' | 'complete'>
  counter_id: string | null
  /** Null: the product's draft; else the released revision the row belongs to (frozen). */
  revision_id: string | null
  /** The same phase across revisions (set to id on insert when not given). */
  lineage: ColumnType<string, string | undefined, string>
}

export interface BomLinesTable {
  id: Generated<string>
  product_id: string
  phase_id: string
  item_id: string
  position: number
  quantity: number
  quantity_per: 'item' | 'job' | 'batch'
  traceability: Generated<'none' | 'form' | 'complete'>
  declared_serials: Generated<boolean>
  /** Null: the product's draft; else the released revision the line belongs to (frozen). */
  revision_id: string | null
}

/** Released revisions of a product's process and bom (migration 2026-11-28-01, docs/revisions.md). */
export interface ProductRevisionsTable {
  id: Generated<string>
  product_id: string
  number: number
  reason: string
  origin: Generated<'release' | 'migration'>
  released_by: string | null
  released_at: ColumnType<Date, Date | string | undefined, never>
  form_fields: ColumnType<Record<string, RevisionField>, string | undefined, never>
}

/** Fields a serial carries (migration 2026-11-25-04), keyed by their form field. */
export interface SerialFieldsTable {
  field_id: string
  mandatory: Generated<boolean>
  position: number
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

/** DATE columns travel as 'YYYY-MM-DD' text (db/connect.ts). */
type DateText = ColumnType<string, string, string>

export type WorkOrderStatus = 'active' | 'completed' | 'closed'
export type JobStatus = 'queued' | 'started' | 'paused' | 'closed'

/** Work orders per view (active / archived), kept by statement triggers (migration 2026-11-28-30). */
export interface WorkOrderCountsTable {
  archived: boolean
  n: number
}

export interface WorkOrdersTable {
  id: Generated<string>
  code: string
  product_id: string
  planned_qt: number
  completed_qt: Generated<number>
  line: Generated<string>
  start_from: DateText | null
  due_by: DateText | null
  release_date: DateText | null
  notes: Generated<string>
  status: Generated<WorkOrderStatus>
  sequence: Generated<number>
  critical: Generated<boolean>
  archived_at: Timestamp | null
  closed_at: Timestamp | null
  created_at: CreatedAt
  updated_at: UpdatedAt
  revision_id: string
}

export interface WorkOrderPhasesTable {
  work_order_id: string
  phase_id: string
  position: number
  released_in_qt: Generated<number>
  taken_qt: Generated<number>
  completed_qt: Generated<number>
  released_out_qt: Generated<number>
}

export interface JobsTable {
  id: Generated<string>
  work_order_id: string
  phase_id: string
  position: number
  quantity: number
  completed_qt: Generated<number>
  active_qt: Generated<number>
  released_qt: Generated<number>
  operator_id: string | null
  status: Generated<JobStatus>
  active: Generated<boolean>
  active_batch_id: string | null
  step_sequence: Json<{ _key: string; type: 'instruction' | 'form' }[]>
  notes: Generated<string>
  queue_position: number | null
  /** work_orders.sequence, copied by triggers (migration 06): the site order on the jobs table itself. */
  wo_sequence: Generated<number>
  time_spent_ms: Generated<number>
  last_heartbeat_at: Timestamp | null
  paused_offline: Generated<boolean>
  critical: Generated<boolean>
  started_at: Timestamp | null
  closed_at: Timestamp | null
  created_at: CreatedAt
  updated_at: UpdatedAt
}

export interface OperatorQueuesTable {
  user_id: string
  independent: Generated<boolean>
  updated_at: UpdatedAt
}

export interface BatchesTable {
  id: Generated<string>
  job_id: string
  number: Generated<number>
  qt_total: number
  status: Generated<'open' | 'completed' | 'cancelled'>
  opened_by: string | null
  opened_at: Timestamp
  completed_by: string | null
  completed_at: Timestamp | null
  /** Of qt_total, the pieces declared scrap at completion (reports: OEE quality). */
  scrapped_qt: Generated<number>
}

export interface BatchStepsTable {
  batch_id: string
  step_key: string
  position: number
  type: string
  done: Generated<boolean>
  critical: Generated<boolean>
  form_data: Json<unknown[]>
  execution_record_key: string | null
  done_by: string | null
  done_at: Timestamp | null
  updated_at: UpdatedAt
}

export interface WorkSessionsTable {
  id: Generated<string>
  job_id: string
  user_id: string
  auth_session_id: string | null
  started_at: Timestamp
  ended_at: Timestamp | null
  end_reason: string | null
  /** When the job's next work session started (trigger, reports: the pause between them). */
  next_started_at: Generated<Timestamp | null>
}

export interface IdempotencyKeysTable {
  key: string
  user_id: string
  action: string
  response: Json<unknown>
  created_at: CreatedAt
}

export type IssueState = 'open' | 'closed' | 'reopened'
export type IssueContextType = 'job' | 'work_order' | 'product' | 'generic'
export interface IssuesTable {
  id: Generated<string>
  code: string
  type_id: string
  title: string
  description: Generated<string>
  state: Generated<IssueState>
  critical: Generated<boolean>
  context_type: IssueContextType
  job_id: string | null
  work_order_id: string | null
  product_id: string | null
  batch_id: string | null
  step_key: string | null
  opened_by: string | null
  opened_at: Timestamp
  closed_by: string | null
  closed_at: Timestamp | null
  escalated_at: Timestamp | null
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}
export interface IssueAttachmentsTable {
  issue_id: string
  media_id: string
  created_at: CreatedAt
}
export type MessageContextType = 'job' | 'work_order'
export interface MessagesTable {
  id: Generated<string>
  context_type: MessageContextType
  context_key: string
  author_id: string | null
  body: string
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
  edited_at: Timestamp | null
  deleted_at: Timestamp | null
}
export interface MessageReadsTable {
  user_id: string
  context_type: MessageContextType
  context_key: string
  last_read_at: Timestamp
}
export type SerialState = 'temporary' | 'final'
export interface SerialsTable {
  id: Generated<string>
  code: string
  product_id: string
  work_order_id: string | null
  job_id: string | null
  batch_id: string | null
  phase_id: string | null
  operator_id: string | null
  /** The piece of its batch (1..qt_total) a serial made in a batch numbers (migration 2026-11-25-06). */
  piece: Generated<number | null>
  data: Json<Record<string, unknown>>
  state: Generated<SerialState>
  created_at: CreatedAt
  updated_at: UpdatedAt
}
export interface SerialLinksTable {
  id: Generated<string>
  parent_serial_id: string
  child_serial_id: string
  phase_id: string | null
  bom_line_id: string | null
  batch_id: string | null
  state: Generated<SerialState>
  created_by: string | null
  created_at: CreatedAt
}
/** Warehouse (migration 2026-11-26-01): positions tree, movements and the stock they keep. */
export type MovementType = 'load' | 'unload' | 'transfer' | 'production' | 'consumption' | 'adjustment'
export type MovementStatus = 'planned' | 'confirmed' | 'cancelled'
export interface PositionsTable {
  id: Generated<string>
  code: string
  description: Generated<string>
  parent_id: string | null
  /** Ids from the root down to this position, each followed by '/'. */
  path: string
  owned: Generated<boolean>
  fixed: Generated<boolean>
  available: Generated<boolean>
  disposable: Generated<boolean>
  active: Generated<boolean>
  created_at: CreatedAt
  updated_at: UpdatedAt
}
export interface MovementsTable {
  id: Generated<string>
  number: ColumnType<number, number, never>
  product_id: string
  serial: Generated<string>
  owned: Generated<boolean>
  from_position_id: string | null
  to_position_id: string | null
  type: MovementType
  status: MovementStatus
  planned_quantity: number
  confirmed_quantity: number | null
  reason: Generated<string>
  started_at: Timestamp
  ended_at: Timestamp | null
  created_by: string | null
  confirmed_by: string | null
  reverts_id: string | null
  reverted_by_id: string | null
  revert_reason: string | null
  work_order_id: string | null
  batch_id: string | null
  origin_type: string | null
  origin_key: string | null
  created_at: CreatedAt
}
export interface StockTable {
  position_id: string
  product_id: string
  serial: Generated<string>
  owned: Generated<boolean>
  quantity: number
  updated_at: UpdatedAt
}
/** Missions and movement lists (migration 2026-11-26-10): sets of warehouse movements. */
export type MissionKind = 'to_line' | 'put_away' | 'manual'
export type MissionStatus = 'open' | 'in_progress' | 'done' | 'cancelled'
export interface MissionsTable {
  id: Generated<string>
  number: ColumnType<number, number, never>
  kind: MissionKind
  status: Generated<MissionStatus>
  notes: Generated<string>
  work_order_id: string | null
  assignee_id: string | null
  created_by: string | null
  created_at: CreatedAt
  started_at: Timestamp | null
  ended_at: Timestamp | null
  updated_at: UpdatedAt
}
export interface MissionLinesTable {
  id: Generated<string>
  mission_id: string
  position: number
  movement_id: string
  done_at: Timestamp | null
  done_by: string | null
}
export type MovementListKind = 'work_order' | 'day' | 'mission'
export interface MovementListsTable {
  id: Generated<string>
  number: ColumnType<number, number, never>
  kind: MovementListKind
  title: Generated<string>
  work_order_id: string | null
  mission_id: string | null
  day: string | null
  created_by: string | null
  created_at: CreatedAt
}
export interface MovementListLinesTable {
  list_id: string
  position: number
  movement_id: string
}
/** Printing (migration 2026-11-26-20): templates, assignments, printers, defaults, the print log. */
export interface PrintTemplatesTable {
  id: Generated<string>
  name: string
  base_pdf_key: string
  base_pdf_name: string
  pages: number
  page_width: number
  page_height: number
  fields: Json<import('../../src/domains/printing/schemas').TemplateField[]>
  context: string | null
  context_key: string | null
  temp: Generated<boolean>
  trashed_at: Timestamp | null
  created_at: CreatedAt
  updated_at: UpdatedAt
}
export interface PrintTemplateAssignmentsTable {
  template_id: string
  context: string
  context_key: string
  created_at: CreatedAt
}
export interface PrintersTable {
  id: Generated<string>
  name: string
  host: string
  port: number
  protocol: 'ipp' | 'ipps' | 'raw'
  path: Generated<string>
  trashed_at: Timestamp | null
  created_at: CreatedAt
  updated_at: UpdatedAt
}
export interface PrinterDefaultsTable {
  user_id: string
  printer_id: string
}
export interface PrintsTable {
  id: Generated<string>
  /** null for a printer's test print. */
  template_id: string | null
  printer_id: string | null
  user_id: string | null
  documents: number
  subject: Json<Record<string, unknown>>
  status: 'made' | 'accepted' | 'refused' | 'unreachable'
  message: Generated<string>
  storage_key: string
  created_at: CreatedAt
}
export interface NumberingsTable {
  name: string
  last_value: number
}

export interface Database {
  numberings: NumberingsTable
  users: UsersTable
  auth_sessions: AuthSessionsTable
  api_tokens: ApiTokensTable
  login_throttle: LoginThrottleTable
  events: EventsTable
  signatures: SignaturesTable
  event_chain: EventChainTable
  event_chain_head: EventChainHeadTable
  settings: SettingsTable
  flows: FlowsTable
  flow_deliveries: FlowDeliveriesTable
  import_runs: ImportRunsTable
  departments: DepartmentsTable
  media: MediaTable
  form_fields: FormFieldsTable
  operations: OperationsTable
  issue_types: IssueTypesTable
  counters: CountersTable
  products: ProductsTable
  product_docs: ProductDocsTable
  tags: TagsTable
  tag_links: TagLinksTable
  product_phases: ProductPhasesTable
  bom_lines: BomLinesTable
  product_revisions: ProductRevisionsTable
  serial_fields: SerialFieldsTable
  work_orders: WorkOrdersTable
  work_order_counts: WorkOrderCountsTable
  work_order_phases: WorkOrderPhasesTable
  jobs: JobsTable
  operator_queues: OperatorQueuesTable
  batches: BatchesTable
  batch_steps: BatchStepsTable
  work_sessions: WorkSessionsTable
  idempotency_keys: IdempotencyKeysTable
  issues: IssuesTable
  issue_attachments: IssueAttachmentsTable
  messages: MessagesTable
  message_reads: MessageReadsTable
  serials: SerialsTable
  serial_links: SerialLinksTable
  print_templates: PrintTemplatesTable
  print_template_assignments: PrintTemplateAssignmentsTable
  printers: PrintersTable
  printer_defaults: PrinterDefaultsTable
  prints: PrintsTable
  positions: PositionsTable
  movements: MovementsTable
  stock: StockTable
  missions: MissionsTable
  mission_lines: MissionLinesTable
  movement_lists: MovementListsTable
  movement_list_lines: MovementListLinesTable
}

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type AuthSession = Selectable<AuthSessionsTable>

/** The typed database handle every query and service takes (PostgreSQL or PGlite alike). */
export type Db = Kysely<Database>
