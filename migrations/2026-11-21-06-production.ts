import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any> so later schema types never change it.
// Production: work orders in a site queue, split into jobs per phase; material flow between
// phases; operator queues; and the execution records of jobs (batches, their steps, work sessions).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence work_order_code_seq`.execute(db)
  // The site queue order: a new work order goes to the end.
  await sql`create sequence work_order_sequence_seq`.execute(db)

  await db.schema
    .createTable('work_orders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('product_id', 'uuid', (c) => c.notNull().references('products.id').onDelete('restrict'))
    .addColumn('planned_qt', 'integer', (c) => c.notNull().check(sql`planned_qt > 0`))
    .addColumn('completed_qt', 'integer', (c) => c.notNull().defaultTo(0).check(sql`completed_qt >= 0`))
    .addColumn('line', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('start_from', 'date')
    .addColumn('due_by', 'date')
    .addColumn('release_date', 'date')
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(sql`status in ('active', 'completed', 'closed')`))
    .addColumn('sequence', 'bigint', (c) => c.notNull().defaultTo(sql`nextval('work_order_sequence_seq')`))
    // Set while a critical issue is open on the work order or one of its jobs (quality area).
    .addColumn('critical', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('closed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`create index work_orders_queue on work_orders ((archived_at is null), sequence)`.execute(db)
  await db.schema.createIndex('work_orders_product').on('work_orders').column('product_id').execute()
  await sql`create index work_orders_due on work_orders (due_by) where archived_at is null`.execute(db)
  // Jobs (or work orders) of one product in site queue order, one page at a time.
  await sql`create index work_orders_product_queue on work_orders (product_id, sequence) where archived_at is null`.execute(db)
  await sql`create index work_orders_critical on work_orders (id) where critical`.execute(db)

  // Material flow per phase of a work order (DOMAIN.md): what reached the phase from upstream,
  // what its jobs took into batches, finished, and released downstream.
  await db.schema
    .createTable('work_order_phases')
    .addColumn('work_order_id', 'uuid', (c) => c.notNull().references('work_orders.id').onDelete('cascade'))
    .addColumn('phase_id', 'uuid', (c) => c.notNull().references('product_phases.id').onDelete('restrict'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('released_in_qt', 'integer', (c) => c.notNull().defaultTo(0).check(sql`released_in_qt >= 0`))
    .addColumn('taken_qt', 'integer', (c) => c.notNull().defaultTo(0).check(sql`taken_qt >= 0`))
    .addColumn('completed_qt', 'integer', (c) => c.notNull().defaultTo(0).check(sql`completed_qt >= 0`))
    .addColumn('released_out_qt', 'integer', (c) => c.notNull().defaultTo(0).check(sql`released_out_qt >= 0`))
    .addPrimaryKeyConstraint('work_order_phases_pk', ['work_order_id', 'phase_id'])
    .addCheckConstraint('work_order_phases_taken_le_released', sql`taken_qt <= released_in_qt`)
    .execute()
  await db.schema.createIndex('work_order_phases_position').on('work_order_phases').columns(['work_order_id', 'position']).execute()

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('work_order_id', 'uuid', (c) => c.notNull().references('work_orders.id').onDelete('cascade'))
    .addColumn('phase_id', 'uuid', (c) => c.notNull().references('product_phases.id').onDelete('restrict'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity >= 0`))
    .addColumn('completed_qt', 'integer', (c) => c.notNull().defaultTo(0).check(sql`completed_qt >= 0`))
    .addColumn('active_qt', 'integer', (c) => c.notNull().defaultTo(0).check(sql`active_qt >= 0`))
    .addColumn('released_qt', 'integer', (c) => c.notNull().defaultTo(0).check(sql`released_qt >= 0`))
    .addColumn('operator_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('queued').check(sql`status in ('queued', 'started', 'paused', 'closed')`),
    )
    // Running right now: an open work session (SPEC Job.active).
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('active_batch_id', 'uuid')
    // [{_key, type}] copied from the phase steps when the job is created.
    .addColumn('step_sequence', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    // An operator's own order when independent ordering is on (else the site queue order).
    .addColumn('queue_position', 'bigint')
    // A copy of work_orders.sequence kept by triggers (below): lists ordered by the site queue can
    // then page through one index of jobs (an operator's queue, most of all).
    .addColumn('wo_sequence', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('time_spent_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_heartbeat_at', 'timestamptz')
    .addColumn('paused_offline', 'boolean', (c) => c.notNull().defaultTo(false))
    // Set while a critical issue is open on the job (quality area).
    .addColumn('critical', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('started_at', 'timestamptz')
    .addColumn('closed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('jobs_done_within_quantity', sql`completed_qt + active_qt <= quantity`)
    .execute()
  await db.schema.createIndex('jobs_work_order').on('jobs').columns(['work_order_id', 'position']).execute()
  await db.schema.createIndex('jobs_operator').on('jobs').columns(['operator_id', 'status']).execute()
  await db.schema.createIndex('jobs_status').on('jobs').columns(['status', 'work_order_id']).execute()
  await db.schema.createIndex('jobs_phase').on('jobs').column('phase_id').execute()
  // Job list by operator in site order: the per-work-order probe finds the operator's open jobs
  // without reading the other jobs' rows (bench/planning-scale.ts).
  await sql`create index jobs_open_by_work_order_operator on jobs (work_order_id, operator_id) where status <> 'closed'`.execute(db)
  await sql`create index jobs_open_by_operator_queue on jobs (operator_id, wo_sequence, position, id) where status <> 'closed'`.execute(db)
  // jobs.wo_sequence follows its work order's place in the site queue, whoever writes it.
  await sql`create function jobs_take_wo_sequence() returns trigger language plpgsql as $$
    begin
      new.wo_sequence := (select w.sequence from work_orders w where w.id = new.work_order_id);
      return new;
    end $$`.execute(db)
  await sql`create trigger jobs_wo_sequence before insert or update of work_order_id on jobs
    for each row execute function jobs_take_wo_sequence()`.execute(db)
  await sql`create function work_orders_pass_sequence() returns trigger language plpgsql as $$
    begin
      update jobs set wo_sequence = new.sequence where work_order_id = new.id;
      return null;
    end $$`.execute(db)
  await sql`create trigger work_orders_sequence_to_jobs after update of sequence on work_orders
    for each row when (old.sequence is distinct from new.sequence) execute function work_orders_pass_sequence()`.execute(db)
  // The 'critical' filter: few critical jobs and work orders, found by their own small indexes.
  await sql`create index jobs_critical on jobs (work_order_id) where critical`.execute(db)
  // The offline sweep only looks at running jobs. last_heartbeat_at is deliberately in no index:
  // a heartbeat (every 10 s per running job) then updates no index and stays a HOT update, and
  // the fillfactor leaves room on each page for those new row versions.
  await sql`create index jobs_running on jobs (phase_id) where active`.execute(db)
  await sql`alter table jobs set (fillfactor = 80)`.execute(db)

  await db.schema
    .createTable('operator_queues')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id'))
    .addColumn('independent', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('batches')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('job_id', 'uuid', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    // 1 for the job's first batch, then 2, 3 ... (the job row is locked while a batch opens).
    .addColumn('number', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('qt_total', 'integer', (c) => c.notNull().check(sql`qt_total > 0`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open', 'completed', 'cancelled')`))
    .addColumn('opened_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('opened_at', 'timestamptz', (c) => c.notNull())
    .addColumn('completed_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('completed_at', 'timestamptz')
    // Serial links declared in the batch before traceability finalises them (PUT batch/{key}/serial-temp-links).
    .addColumn('serial_temp_links', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute()
  await db.schema.createIndex('batches_job').on('batches').columns(['job_id', 'opened_at']).execute()
  // At most one open batch per job.
  await sql`create unique index batches_one_open_per_job on batches (job_id) where status = 'open'`.execute(db)

  // Batch step data (SPEC 3): one row per step of the job's step_sequence in a batch.
  await db.schema
    .createTable('batch_steps')
    .addColumn('batch_id', 'uuid', (c) => c.notNull().references('batches.id').onDelete('cascade'))
    .addColumn('step_key', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('done', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('critical', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('form_data', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('execution_record_key', 'text')
    .addColumn('done_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('done_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('batch_steps_pk', ['batch_id', 'step_key'])
    .execute()

  await db.schema
    .createTable('work_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('job_id', 'uuid', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('auth_session_id', 'text')
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz')
    .addColumn('end_reason', 'text')
    .execute()
  await sql`create unique index work_sessions_one_open_per_job on work_sessions (job_id) where ended_at is null`.execute(db)
  await db.schema.createIndex('work_sessions_user').on('work_sessions').columns(['user_id', 'started_at']).execute()
  // Signing out pauses the jobs whose open work session belongs to that sign-in session.
  await sql`create index work_sessions_open_by_auth_session on work_sessions (auth_session_id) where ended_at is null`.execute(db)

  // Retried operator actions (lost responses) answer the first outcome again.
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('response', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // The sweep expires old keys.
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute()
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
