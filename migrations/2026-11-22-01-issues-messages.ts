import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Quality issues (SPEC 3 Issue, 4 issue states) and message threads on jobs and work orders.
export async function up(db: Kysely<any>): Promise<void> {
  // Readable issue codes: ISS-000001, ... (one sequence, never reused).
  await sql`create sequence issue_code_seq`.execute(db)
  await db.schema
    .createTable('issues')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('type_id', 'uuid', (c) => c.notNull().references('issue_types.id').onDelete('restrict'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // open | closed | reopened (SPEC 4); critical is a separate flag.
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('critical', 'boolean', (c) => c.notNull().defaultTo(false))
    // What the issue is about: a job (with its work order and product), a work order (with its
    // product), a product, or nothing (generic). Batch and step narrow a job context.
    .addColumn('context_type', 'text', (c) => c.notNull())
    .addColumn('job_id', 'uuid', (c) => c.references('jobs.id').onDelete('restrict'))
    .addColumn('work_order_id', 'uuid', (c) => c.references('work_orders.id').onDelete('restrict'))
    .addColumn('product_id', 'uuid', (c) => c.references('products.id').onDelete('restrict'))
    .addColumn('batch_id', 'uuid', (c) => c.references('batches.id').onDelete('set null'))
    .addColumn('step_key', 'text')
    .addColumn('opened_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    // When the issue was last opened (creation or reopen): close-within counts from here.
    .addColumn('opened_at', 'timestamptz', (c) => c.notNull())
    .addColumn('closed_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('closed_at', 'timestamptz')
    .addColumn('escalated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('issues_state_known', sql`state in ('open', 'closed', 'reopened')`)
    .addCheckConstraint('issues_context_known', sql`context_type in ('job', 'work_order', 'product', 'generic')`)
    .addCheckConstraint('issues_closed_has_time', sql`(state = 'closed') = (closed_at is not null)`)
    .execute()
  await db.schema.createIndex('issues_type').on('issues').column('type_id').execute()
  await db.schema.createIndex('issues_job').on('issues').column('job_id').execute()
  await db.schema.createIndex('issues_work_order').on('issues').column('work_order_id').execute()
  await db.schema.createIndex('issues_product').on('issues').column('product_id').execute()
  await sql`create index issues_recent on issues (created_at desc, id desc)`.execute(db)
  // The escalation sweep looks only at open issues that are not critical yet.
  await sql`create index issues_escalation on issues (opened_at) where state <> 'closed' and not critical`.execute(db)

  await db.schema
    .createTable('issue_attachments')
    .addColumn('issue_id', 'uuid', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('media_id', 'uuid', (c) => c.notNull().references('media.id').onDelete('restrict'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('issue_attachments_pk', ['issue_id', 'media_id'])
    .execute()

  await db.schema
    .createTable('messages')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('context_type', 'text', (c) => c.notNull())
    // The job or work order key (no foreign key: one column for both kinds of context).
    .addColumn('context_key', 'uuid', (c) => c.notNull())
    .addColumn('author_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('edited_at', 'timestamptz')
    .addColumn('deleted_at', 'timestamptz')
    .addCheckConstraint('messages_context_known', sql`context_type in ('job', 'work_order')`)
    .execute()
  await sql`create index messages_thread on messages (context_type, context_key, created_at, id)`.execute(db)

  // How far each user has read each thread: unread = others' messages after last_read_at.
  await db.schema
    .createTable('message_reads')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('context_type', 'text', (c) => c.notNull())
    .addColumn('context_key', 'uuid', (c) => c.notNull())
    .addColumn('last_read_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_reads_pk', ['user_id', 'context_type', 'context_key'])
    .execute()
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
