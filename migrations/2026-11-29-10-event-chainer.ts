import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// The event chain linked after COMMIT by one chainer instead of at COMMIT by a deferred trigger
// (issue 22, docs/audit.md). The trigger held the chain head's row lock through each commit's WAL
// flush, so appending transactions could not share a flush (0.23-0.30x the unchained appends with
// 50 writers); its pg_notify took PostgreSQL's notify lock through the commit too.
//
// Now an event remembers the transaction that wrote it (`xid`, xid8), and `event_chain_round()`
// links, in one transaction, every committed event not linked yet. `event_chain_head.watermark`
// is the transaction horizon of the last round: every transaction below it had ended (committed
// or rolled back) when that round looked, and its events were linked then, so a round looks only
// at events of transactions from the watermark on. A still-open transaction holds the watermark, not the links: events of
// transactions that committed after it are linked at once, its own when it commits. Link numbers
// are therefore the order in which the chainer saw the commits: a reader that follows them (live
// streams) never skips an event that committed late.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger events_chain on events`.execute(db)
  await sql`drop function event_chain_link()`.execute(db)
  // Events recorded before (all linked by the trigger) keep a null xid: no round looks at them.
  await sql`alter table events add column xid xid8`.execute(db)
  await sql`alter table events alter column xid set default pg_current_xact_id()`.execute(db)
  await sql`create index events_xid on events (xid)`.execute(db)
  await sql`alter table event_chain_head add column watermark xid8`.execute(db)
  await sql`update event_chain_head set watermark = pg_snapshot_xmin(pg_current_snapshot())`.execute(db)
  await sql`alter table event_chain_head alter column watermark set not null`.execute(db)

  // One round of the chainer. linked = -1: another round holds the lock (try again shortly).
  // waiting: some write transaction was still open when the round looked (one of them may be
  // appending events: look again soon).
  await sql`
    create function event_chain_round(max_links integer, out linked integer, out waiting boolean) language plpgsql as $$
    declare
      snap pg_snapshot := pg_current_snapshot();
      head event_chain_head%rowtype;
      e events%rowtype;
      next_hash text;
    begin
      linked := 0;
      waiting := exists (select 1 from pg_snapshot_xip(snap));
      if not pg_try_advisory_xact_lock(hashtext('mes.event_chain')) then
        linked := -1;
        return;
      end if;
      select * into head from event_chain_head;
      -- This statement's snapshot is newer than snap: every transaction below snap's xmin that
      -- committed is visible to it.
      for e in
        select ev.* from events ev
        where ev.xid >= head.watermark and not exists (select 1 from event_chain c where c.event_id = ev.id)
        order by ev.xid, ev.id
        limit max_links
      loop
        next_hash := encode(sha256(convert_to(head.hash || event_chain_text(e), 'UTF8')), 'hex');
        head.seq := head.seq + 1;
        insert into event_chain (seq, event_id, prev_hash, hash) values (head.seq, e.id, head.hash, next_hash);
        head.hash := next_hash;
        linked := linked + 1;
      end loop;
      -- A round cut short by max_links keeps the watermark: the next one goes on from there.
      if linked > 0 then
        update event_chain_head set seq = head.seq, hash = head.hash,
          watermark = case when linked < max_links then greatest(head.watermark, pg_snapshot_xmin(snap)) else head.watermark end;
      end if;
      -- Wakes every instance's live hub after COMMIT; the hub reads the chain from where it was.
      if linked > 0 then perform pg_notify('mes_live', ''); end if;
    end $$`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function event_chain_round(integer)`.execute(db)
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
      perform pg_notify('mes_live', '');
      return null;
    end $$`.execute(db)
  await sql`
    create constraint trigger events_chain after insert on events
    deferrable initially deferred for each row execute function event_chain_link()`.execute(db)
  await sql`alter table event_chain_head drop column watermark`.execute(db)
  await sql`drop index events_xid`.execute(db)
  await sql`alter table events drop column xid`.execute(db)
}
