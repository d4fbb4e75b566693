import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'
import type { Step } from '../../src/domains/process/steps'
import type { PhaseParameters } from '../../src/domains/process/phase-parameters'

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

export interface LoginThrottleTable {
  key: string
  failures: number
  last_failure_at: Timestamp
  blocked_until: Timestamp | null
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
  uploaded_at: CreatedAt
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
}

export interface Database {
  users: UsersTable
  auth_sessions: AuthSessionsTable
  api_tokens: ApiTokensTable
  login_throttle: LoginThrottleTable
  events: EventsTable
  settings: SettingsTable
  departments: DepartmentsTable
  media: MediaTable
  form_fields: FormFieldsTable
  operations: OperationsTable
  issue_types: IssueTypesTable
  products: ProductsTable
  product_docs: ProductDocsTable
  tags: TagsTable
  tag_links: TagLinksTable
  product_phases: ProductPhasesTable
  bom_lines: BomLinesTable
}

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type AuthSession = Selectable<AuthSessionsTable>
