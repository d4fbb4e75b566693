import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// The work order list at 100,000 work orders (1M jobs), issue 23.
export async function up(db: Kysely<any>): Promise<void> {
  // Searching work orders by code or line (the work order list's search, the job list's search
  // words) is a "contains" match (ILIKE '%word%'): a scan of every code took hundreds of
  // milliseconds at 100,000. Trigram indexes answer it from the index. pg_trgm is a trusted
  // extension (the database owner may create it); PGlite loads it too (connect.ts).
  await sql`create extension if not exists pg_trgm`.execute(db)
  await sql`create index work_orders_code_trgm on work_orders using gin (code gin_trgm_ops)`.execute(db)
  await sql`create index work_orders_line_trgm on work_orders using gin (line gin_trgm_ops)`.execute(db)

  // The list's total without a filter (its first screen) is the number of active (or archived)
  // work orders: counting 80,000 index entries per page view grows with the plant, this row does
  // not. Inserts and deletes count per statement (one counter write however many rows); an update
  // counts only when it archives or restores (the trigger's WHEN), so no other update of a work
  // order touches the counter.
  await sql`create table work_order_counts (archived boolean primary key, n bigint not null)`.execute(db)
  await sql`insert into work_order_counts (archived, n)
    select a, (select count(*) from work_orders w where (w.archived_at is not null) = a) from (values (false), (true)) v(a)`.execute(db)
  await sql`create function work_order_counts_add() returns trigger language plpgsql as $$
    begin
      update work_order_counts c set n = c.n + d.k
        from (select archived_at is not null as archived, count(*) as k from added group by 1) d where c.archived = d.archived;
      return null;
    end $$`.execute(db)
  await sql`create function work_order_counts_remove() returns trigger language plpgsql as $$
    begin
      update work_order_counts c set n = c.n - d.k
        from (select archived_at is not null as archived, count(*) as k from removed group by 1) d where c.archived = d.archived;
      return null;
    end $$`.execute(db)
  await sql`create function work_order_counts_move() returns trigger language plpgsql as $$
    begin
      update work_order_counts set n = n + case when archived = (new.archived_at is not null) then 1 else -1 end;
      return null;
    end $$`.execute(db)
  await sql`create trigger work_order_counts_insert after insert on work_orders referencing new table as added
    for each statement execute function work_order_counts_add()`.execute(db)
  await sql`create trigger work_order_counts_delete after delete on work_orders referencing old table as removed
    for each statement execute function work_order_counts_remove()`.execute(db)
  await sql`create trigger work_order_counts_archive after update of archived_at on work_orders
    for each row when ((old.archived_at is null) <> (new.archived_at is null)) execute function work_order_counts_move()`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
