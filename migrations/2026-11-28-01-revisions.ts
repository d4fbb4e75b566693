import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Change control (issue 21, docs/revisions.md): a product's process and bom rows with
// revision_id null are its draft; releasing copies them into revision N (rows keyed by the
// revision, frozen by triggers). Work orders name the revision they were made from, and their jobs
// and material flow point at that revision's phases, so execution reads what was released.
// Existing data: the current rows of every product with a process (or work orders) become
// revision 1, which keeps the phase ids running jobs point at; a copy of them is the new draft.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('product_revisions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('product_id', 'uuid', (c) => c.notNull().references('products.id').onDelete('restrict'))
    // 1, 2, 3 ... per product, never skipping: taken under the product's row lock.
    .addColumn('number', 'integer', (c) => c.notNull().check(sql`number >= 1`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull().defaultTo('release').check(sql`origin in ('release', 'migration')`))
    .addColumn('released_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('released_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The definitions of the form fields the revision's steps use, as they were at release
    // ({key: {_key, name, type, options, multiple, mandatory, help_text}}).
    .addColumn('form_fields', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addUniqueConstraint('product_revisions_number', ['product_id', 'number'])
    .execute()

  await db.schema
    .alterTable('product_phases')
    .addColumn('revision_id', 'uuid', (c) => c.references('product_revisions.id').onDelete('restrict'))
    // The same phase across revisions: the draft phase's id, carried by every released copy.
    .addColumn('lineage', 'uuid')
    .execute()
  await db.schema.alterTable('bom_lines').addColumn('revision_id', 'uuid', (c) => c.references('product_revisions.id').onDelete('restrict')).execute()
  await db.schema.alterTable('work_orders').addColumn('revision_id', 'uuid', (c) => c.references('product_revisions.id').onDelete('restrict')).execute()

  await sql`create function product_phases_own_lineage() returns trigger language plpgsql as $$
    begin
      if new.lineage is null then new.lineage := new.id; end if;
      return new;
    end $$`.execute(db)
  await sql`create trigger product_phases_lineage before insert on product_phases
    for each row execute function product_phases_own_lineage()`.execute(db)

  // Revision 1 of every product that has phases or work orders, from the current rows.
  await sql`
    insert into product_revisions (product_id, number, reason, origin, released_at, form_fields)
    select p.id, 1, 'Revisione iniziale', 'migration', now(), coalesce((
      select jsonb_object_agg(f.id::text, jsonb_build_object(
        '_key', f.id::text, 'name', f.name, 'type', f.type, 'options', to_jsonb(f.options),
        'multiple', f.multiple, 'mandatory', f.mandatory, 'help_text', f.help_text))
      from form_fields f
      where f.id::text in (
        select jsonb_array_elements_text(s -> 'fields')
        from product_phases ph cross join jsonb_array_elements(ph.steps) s
        where ph.product_id = p.id)
    ), '{}'::jsonb)
    from products p
    where exists (select 1 from product_phases ph where ph.product_id = p.id)
       or exists (select 1 from work_orders w where w.product_id = p.id)`.execute(db)
  await sql`update product_phases ph set revision_id = r.id, lineage = ph.id
    from product_revisions r where r.product_id = ph.product_id`.execute(db)
  await sql`update bom_lines b set revision_id = ph.revision_id from product_phases ph where ph.id = b.phase_id`.execute(db)
  await sql`update work_orders w set revision_id = r.id from product_revisions r where r.product_id = w.product_id`.execute(db)

  // The draft: a copy of revision 1 (same lineage and step keys, new phase and line ids).
  await sql`create temporary table draft_phase_ids as
    select id as released_id, gen_random_uuid() as draft_id from product_phases`.execute(db)
  await sql`
    insert into product_phases (id, product_id, position, name, operation_id, department_id, parameters, steps,
      production_notes, print_templates, created_at, updated_at, traceability_level, counter_id, revision_id, lineage)
    select d.draft_id, ph.product_id, ph.position, ph.name, ph.operation_id, ph.department_id, ph.parameters, ph.steps,
      ph.production_notes, ph.print_templates, ph.created_at, ph.updated_at, ph.traceability_level, ph.counter_id, null, ph.lineage
    from product_phases ph join draft_phase_ids d on d.released_id = ph.id`.execute(db)
  await sql`
    insert into bom_lines (product_id, phase_id, item_id, position, quantity, quantity_per, traceability, declared_serials, revision_id)
    select b.product_id, d.draft_id, b.item_id, b.position, b.quantity, b.quantity_per, b.traceability, b.declared_serials, null
    from bom_lines b join draft_phase_ids d on d.released_id = b.phase_id`.execute(db)
  await sql`
    insert into print_template_assignments (template_id, context, context_key, created_at)
    select a.template_id, a.context, d.draft_id::text, a.created_at
    from print_template_assignments a join draft_phase_ids d on a.context = 'phase' and a.context_key = d.released_id::text`.execute(db)
  await sql`drop table draft_phase_ids`.execute(db)

  await sql`alter table product_phases alter column lineage set not null`.execute(db)
  await sql`alter table work_orders alter column revision_id set not null`.execute(db)
  await db.schema.createIndex('product_revisions_latest').on('product_revisions').columns(['product_id', 'number desc']).execute()
  // The draft of a product (the library's reads) and a revision's phases (execution's and the diff's).
  await sql`create index product_phases_draft on product_phases (product_id, position) where revision_id is null`.execute(db)
  await sql`create index product_phases_revision on product_phases (revision_id, position) where revision_id is not null`.execute(db)
  await sql`create index bom_lines_revision on bom_lines (revision_id) where revision_id is not null`.execute(db)
  await db.schema.createIndex('work_orders_revision').on('work_orders').column('revision_id').execute()

  // A released revision never changes: its rows refuse updates and deletes, whoever writes.
  await sql`create function revision_rows_frozen() returns trigger language plpgsql as $$
    begin
      if old.revision_id is not null or (tg_op = 'UPDATE' and new.revision_id is not null) then
        raise exception 'rows of a released revision cannot change' using errcode = 'P0021', hint = 'REVISION_FROZEN';
      end if;
      return case when tg_op = 'DELETE' then old else new end;
    end $$`.execute(db)
  await sql`create trigger product_phases_frozen before update or delete on product_phases
    for each row execute function revision_rows_frozen()`.execute(db)
  await sql`create trigger bom_lines_frozen before update or delete on bom_lines
    for each row execute function revision_rows_frozen()`.execute(db)
  await sql`create function product_revisions_frozen() returns trigger language plpgsql as $$
    begin
      raise exception 'a released revision cannot change' using errcode = 'P0021', hint = 'REVISION_FROZEN';
    end $$`.execute(db)
  await sql`create trigger product_revisions_frozen before update or delete on product_revisions
    for each row execute function product_revisions_frozen()`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
