import { describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import pg from 'pg'
import { openPglite, openPostgres, type OpenDatabase } from './connect'
import { migrateToLatest, migrateUpTo } from './migrate'
import { withDatabase } from '../test/database'

const BEFORE = '2026-11-26-50-flows'

/** An empty database (no migrations run): PostgreSQL when TEST_DATABASE_URL is set, else PGlite. */
async function emptyDatabase(): Promise<OpenDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) return openPglite()
  const name = `mes_t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database "${name}"`)
  await admin.end()
  const database = openPostgres(withDatabase(adminUrl, name), 2)
  return {
    ...database,
    async close() {
      await database.close()
      const dropper = new pg.Client({ connectionString: adminUrl })
      await dropper.connect()
      await dropper.query(`drop database if exists "${name}" with (force)`)
      await dropper.end()
    },
  }
}

/** A product with two phases and a bom line, and a running work order (a batch open), as the previous schema stores them. */
async function runningPlant(db: Kysely<any>) {
  const one = <T>(q: { execute: (db: Kysely<any>) => Promise<{ rows: T[] }> }) => q.execute(db).then((r) => r.rows[0]!)
  const user = await one<{ id: string }>(sql`insert into users (username, name, surname, scope, password_hash) values ('op', 'O', 'P', 'production', 'x') returning id`)
  const field = await one<{ id: string }>(sql`insert into form_fields (name, type) values ('Coppia', 'number') returning id`)
  const op = await one<{ id: string }>(sql`insert into operations (name) values ('Montaggio') returning id`)
  const product = await one<{ id: string }>(sql`insert into products (code) values ('P-1') returning id`)
  const item = await one<{ id: string }>(sql`insert into products (code) values ('C-1') returning id`)
  const bare = await one<{ id: string }>(sql`insert into products (code) values ('BARE') returning id`)
  const steps = [
    { _key: 's1', type: 'check', title: 'Pulire', text: '', media: [], fields: [], print_templates: [] },
    { _key: 's2', type: 'form', title: 'Serrare', text: 'a 5 Nm', media: [], fields: [field.id], print_templates: [] },
  ]
  const phase1 = await one<{ id: string }>(
    sql`insert into product_phases (product_id, position, name, operation_id, parameters, steps) values (${product.id}, 1, 'Montare', ${op.id}, '{}', ${JSON.stringify(steps)}) returning id`,
  )
  const phase2 = await one<{ id: string }>(
    sql`insert into product_phases (product_id, position, name, operation_id, parameters) values (${product.id}, 2, 'Collaudo', ${op.id}, '{}') returning id`,
  )
  await sql`insert into bom_lines (product_id, phase_id, item_id, position, quantity, quantity_per) values (${product.id}, ${phase1.id}, ${item.id}, 1, 2, 'item')`.execute(db)
  const wo = await one<{ id: string }>(sql`insert into work_orders (code, product_id, planned_qt) values ('WO-1', ${product.id}, 10) returning id`)
  for (const [i, ph] of [phase1, phase2].entries()) {
    await sql`insert into work_order_phases (work_order_id, phase_id, position, released_in_qt) values (${wo.id}, ${ph.id}, ${i + 1}, ${i === 0 ? 10 : 0})`.execute(db)
  }
  const sequence = JSON.stringify(steps.map((s) => ({ _key: s._key, type: s.type })))
  const job = await one<{ id: string }>(
    sql`insert into jobs (work_order_id, phase_id, position, quantity, operator_id, status, step_sequence, started_at, active_qt)
        values (${wo.id}, ${phase1.id}, 1, 10, ${user.id}, 'paused', ${sequence}, now(), 5) returning id`,
  )
  const batch = await one<{ id: string }>(sql`insert into batches (job_id, qt_total, opened_by, opened_at) values (${job.id}, 5, ${user.id}, now()) returning id`)
  await sql`insert into batch_steps (batch_id, step_key, position, type, done) values (${batch.id}, 's1', 1, 'check', true), (${batch.id}, 's2', 2, 'form', false)`.execute(db)
  return { product: product.id, bare: bare.id, phases: [phase1.id, phase2.id], field: field.id, wo: wo.id, job: job.id }
}

describe('migration 2026-11-28-01-revisions on a database holding running work', () => {
  test('revision 1 holds the current rows, work orders and jobs stay on them, a draft copy is editable, released rows are frozen', async () => {
    const database = await emptyDatabase()
    try {
      const db = database.db as unknown as Kysely<any>
      await migrateUpTo(database.db, BEFORE)
      const plant = await runningPlant(db)
      expect(await migrateToLatest(database.db)).toContain('2026-11-28-01-revisions')

      const revisions = await db.selectFrom('product_revisions').selectAll().execute()
      expect(revisions).toHaveLength(1)
      const rev = revisions[0]!
      expect(rev).toMatchObject({ product_id: plant.product, number: 1, origin: 'migration', reason: 'Revisione iniziale', released_by: null })
      expect(rev.form_fields[plant.field]).toMatchObject({ _key: plant.field, name: 'Coppia', type: 'number' })

      // The work order is pinned; its job and material flow still point at the (now released) phases.
      expect((await db.selectFrom('work_orders').select('revision_id').where('id', '=', plant.wo).executeTakeFirstOrThrow()).revision_id).toBe(rev.id)
      const job = await db.selectFrom('jobs').select(['phase_id', 'status']).where('id', '=', plant.job).executeTakeFirstOrThrow()
      expect(job).toEqual({ phase_id: plant.phases[0], status: 'paused' })
      const released = await db.selectFrom('product_phases').select(['id', 'lineage', 'steps']).where('revision_id', '=', rev.id).orderBy('position').execute()
      expect(released.map((p) => p.id)).toEqual(plant.phases)
      expect(released.map((p) => p.lineage)).toEqual(plant.phases)
      expect((await db.selectFrom('bom_lines').select('revision_id').where('phase_id', '=', plant.phases[0]).execute()).map((b) => b.revision_id)).toEqual([rev.id])

      // The draft: new phase ids, the same lineage and step keys, its own bom line.
      const draft = await db.selectFrom('product_phases').select(['id', 'lineage', 'steps']).where('product_id', '=', plant.product).where('revision_id', 'is', null).orderBy('position').execute()
      expect(draft.map((p) => p.lineage)).toEqual(plant.phases)
      expect(draft.every((p) => !plant.phases.includes(p.id))).toBe(true)
      expect(draft[0]!.steps).toEqual(released[0]!.steps)
      expect(await db.selectFrom('bom_lines').select('id').where('phase_id', '=', draft[0]!.id).where('revision_id', 'is', null).execute()).toHaveLength(1)
      // A product with neither process nor work orders gets no revision.
      expect(await db.selectFrom('product_revisions').select('id').where('product_id', '=', plant.bare).execute()).toHaveLength(0)

      // The draft changes; the released rows do not.
      await db.updateTable('product_phases').set({ name: 'Montare bene' }).where('id', '=', draft[0]!.id).execute()
      await expect(db.updateTable('product_phases').set({ name: 'x' }).where('id', '=', plant.phases[0]).execute()).rejects.toThrow(/released revision/)
      await expect(db.deleteFrom('bom_lines').where('revision_id', '=', rev.id).execute()).rejects.toThrow(/released revision/)
      await expect(db.updateTable('product_revisions').set({ reason: 'x' }).where('id', '=', rev.id).execute()).rejects.toThrow(/released revision/)
      // A new phase names its own lineage.
      const added = await sql<{ id: string; lineage: string }>`insert into product_phases (product_id, position, name, operation_id, parameters)
        select product_id, 3, 'Imballo', operation_id, '{}' from product_phases where id = ${draft[0]!.id} returning id, lineage`.execute(db)
      expect(added.rows[0]!.lineage).toBe(added.rows[0]!.id)
    } finally {
      await database.close()
    }
  }, 120_000)
})
