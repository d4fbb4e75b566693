import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// The event chain (issues 22 and 23): every event gets, at COMMIT, the next number of one gapless
// sequence in commit order and a SHA-256 hash over its content and the previous hash. Readers
// that follow the chain by number (live screens, GET events/stream) never miss an event that
// committed late, and an event changed behind the app's back breaks the chain where it was changed.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table event_chain (
      seq bigint primary key,
      event_id bigint not null unique references events (id),
      prev_hash text not null,
      hash text not null,
      chained_at timestamptz not null default clock_timestamp()
    )`.execute(db)
  // One row: the last link. Its row lock, taken at COMMIT, orders the links as the commits happen.
  await sql`
    create table event_chain_head (
      one boolean primary key default true check (one),
      seq bigint not null,
      hash text not null
    )`.execute(db)
  await sql`insert into event_chain_head (seq, hash) values (0, repeat('0', 64))`.execute(db)

  // What is hashed: every column of the event in a fixed text form (jsonb prints its keys in a fixed order).
  await sql`
    create function event_chain_text(e events) returns text language sql immutable as $$
      select concat_ws(E'\x1f', e.id::text, e.event_type, coalesce(e.user_id::text, ''), coalesce(e.session_id, ''),
        to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        coalesce(e.subject_type, ''), coalesce(e.subject_key, ''), e.data::text)
    $$`.execute(db)

  await sql`
    create function event_chain_link() returns trigger language plpgsql as $$
    declare
      head event_chain_head%rowtype;
      next_hash text;
    begin
      select * into head from event_chain_head for update;
      next_hash := encode(sha256(convert_to(head.hash || event_chain_text(new), 'UTF8')), 'hex');
      insert into event_chain (seq, event_id, prev_hash, hash) values (head.seq + 1, new.id, head.hash, next_hash);
      update event_chain_head set seq = head.seq + 1, hash = next_hash;
      -- Wakes every instance's live hub after COMMIT; the hub reads the chain from where it was.
      perform pg_notify('mes_live', '');
      return null;
    end $$`.execute(db)
  // Deferred to COMMIT: the head's lock is held from the link to the end of the commit, so the
  // link numbers follow commit order and a reader never sees number n+1 before number n.
  await sql`
    create constraint trigger events_chain after insert on events
    deferrable initially deferred for each row execute function event_chain_link()`.execute(db)

  await sql`
    create function event_chain_append_only() returns trigger language plpgsql as $$
    begin raise exception 'the event chain is append-only'; end $$`.execute(db)
  await sql`
    create trigger event_chain_no_change before update or delete on event_chain
    for each row execute function event_chain_append_only()`.execute(db)
  await sql`
    create trigger event_chain_no_truncate before truncate on event_chain
    for each statement execute function event_chain_append_only()`.execute(db)

  // The audit trail's filters by user and by an entity's code, newest first.
  await sql`create index events_user on events (user_id, id)`.execute(db)
  await sql`create index events_code on events ((coalesce(data->>'code', data->>'serial', data->>'username')), id)`.execute(db)

  // The events already recorded, in id order (the best order known for them).
  await sql`
    do $$
    declare
      e events%rowtype;
      n bigint := 0;
      h text := repeat('0', 64);
      next_hash text;
    begin
      for e in select * from events order by id loop
        n := n + 1;
        next_hash := encode(sha256(convert_to(h || event_chain_text(e), 'UTF8')), 'hex');
        insert into event_chain (seq, event_id, prev_hash, hash) values (n, e.id, h, next_hash);
        h := next_hash;
      end loop;
      update event_chain_head set seq = n, hash = h;
    end $$`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index events_user, events_code`.execute(db)
  await sql`drop trigger events_chain on events`.execute(db)
  await sql`drop table event_chain`.execute(db)
  await sql`drop table event_chain_head`.execute(db)
  await sql`drop function event_chain_link(), event_chain_text(events), event_chain_append_only()`.execute(db)
}
