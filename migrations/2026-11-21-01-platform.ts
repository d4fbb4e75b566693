import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any> so later schema types never change it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('surname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text')
    .addColumn('department_id', 'uuid')
    .addColumn('hourly_cost', 'numeric(12, 2)')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('must_change_password', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('preferences', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('image_path', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_login_at', 'timestamptz')
    .execute()
  await sql`create unique index users_username_unique on users (lower(username))`.execute(db)

  await db.schema
    .createTable('auth_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'bytea', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('absolute_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_activity_at', 'timestamptz', (c) => c.notNull())
    .addColumn('locked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('ended_at', 'timestamptz')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute()
  await db.schema.createIndex('auth_sessions_user').on('auth_sessions').column('user_id').execute()

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'bytea', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_by', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz')
    .execute()

  await db.schema
    .createTable('login_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', 'timestamptz', (c) => c.notNull())
    .addColumn('blocked_until', 'timestamptz')
    .execute()

  await db.schema
    .createTable('events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('user_id', 'uuid')
    .addColumn('session_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('subject_type', 'text')
    .addColumn('subject_key', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute()
  await db.schema.createIndex('events_subject').on('events').columns(['subject_type', 'subject_key', 'id']).execute()
  await db.schema.createIndex('events_type_time').on('events').columns(['event_type', 'created_at']).execute()
  // Events are append-only: the database itself refuses edits and deletions.
  await sql`
    create function events_append_only() returns trigger language plpgsql as $$
    begin raise exception 'events are append-only'; end $$`.execute(db)
  await sql`
    create trigger events_no_change before update or delete on events
    for each row execute function events_append_only()`.execute(db)
  await sql`
    create trigger events_no_truncate before truncate on events
    for each statement execute function events_append_only()`.execute(db)

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .execute()
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
