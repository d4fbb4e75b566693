import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Data flows (issue 17): outbound webhook flows and their deliveries (the delivery log; the
// pg-boss job that sends each one lives in pg-boss's own schema), and inbound import runs keyed
// by the caller's Idempotency-Key.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table flows (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      url text not null,
      secret text not null,
      event_types text[] not null,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db)
  await sql`create unique index flows_name on flows (lower(name))`.execute(db)
  // The event append asks "which active flows want this type" in every transaction that records one.
  await sql`create index flows_active_types on flows using gin (event_types) where active`.execute(db)

  await sql`
    create table flow_deliveries (
      id text primary key,
      seq bigint generated always as identity,
      flow_id uuid not null references flows (id) on delete cascade,
      event_id bigint,
      event_type text not null,
      body text not null,
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      last_status_code integer,
      last_error text,
      last_attempt_at timestamptz,
      -- after a failed try: not tried again before this (exponential backoff)
      next_attempt_at timestamptz,
      delivered_at timestamptz,
      queued boolean not null default false,
      created_at timestamptz not null default now(),
      -- retries go on for 24 h from here (the event, or the last "redeliver")
      retry_from timestamptz not null default now()
    )`.execute(db)
  await sql`create unique index flow_deliveries_seq on flow_deliveries (seq)`.execute(db)
  await sql`create index flow_deliveries_log on flow_deliveries (flow_id, seq desc)`.execute(db)
  await sql`create index flow_deliveries_pending on flow_deliveries (flow_id, seq) where status = 'pending'`.execute(db)

  await sql`
    create table import_runs (
      idempotency_key text primary key,
      user_id uuid not null,
      kind text not null,
      request_hash text not null,
      response jsonb not null,
      created_at timestamptz not null default now()
    )`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
