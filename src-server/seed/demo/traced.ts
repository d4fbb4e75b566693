import { DEFAULT_PHASE_PARAMETERS } from '../../../src/domains/process/phase-parameters'
import { dayOf } from '../../../src/domains/work-orders/rules'
import type { Actor, Services } from '../../context'
import { updateBom } from '../../domains/bom/service'
import { saveSerialTempLinks } from '../../domains/execution/batch-serials'
import { updateProcess } from '../../domains/process/service'
import { release } from '../../domains/revisions/service'
import { createSerialField } from '../../domains/serial-fields/service'
import { createWorkOrder } from '../../domains/work-orders/create'
import { at, daysAgo, playShift } from './history'

/**
 * Two-level traceability on the demo floor: the motor group GRM-410 (a sub-assembly numbered by
 * the counter "Gruppi motore", a motor serial scanned into each) is built in one work order and
 * consumed in the electric pump ELP-400 (numbered by "Seriali pompe", a group serial declared in
 * each, with the serial fields filled), then tested. Everything through the library, revision,
 * work order and execution services, a week ago.
 */
export const TRACED = { group: 'GRM-410', pump: 'ELP-400', motor: 'CMP-MOT-41', body: 'CMP-COR-03', screws: 'CMP-VIT-05' } as const
export const TRACED_COUNTERS = { group: 'Gruppi motore', pump: 'Seriali pompe' } as const
/** Form fields kept on every serial (not mandatory: other traced products need not fill them). */
export const SERIAL_FIELD_NAMES = ['Pressione di prova (bar)', 'Esito prova di tenuta'] as const

type Ids = { products: Map<string, string>; counters: Map<string, string>; operations: Map<string, string>; departments: Map<string, string>; fields: Map<string, string> }

async function ids(svc: Services): Promise<Ids> {
  const byName = async (table: 'counters' | 'operations' | 'form_fields') =>
    new Map((await svc.db.selectFrom(table).select(['id', 'name']).execute()).map((r) => [r.name, r.id]))
  return {
    products: new Map((await svc.db.selectFrom('products').select(['id', 'code']).execute()).map((r) => [r.code, r.id])),
    counters: await byName('counters'),
    operations: await byName('operations'),
    departments: new Map((await svc.db.selectFrom('departments').select(['id', 'code']).execute()).map((r) => [r.code, r.id])),
    fields: await byName('form_fields'),
  }
}

/** One traced phase (level complete, numbered by `counter`) and its bom, released as revision 1. */
async function tracedProduct(
  svc: Services,
  actor: Actor,
  id: Ids,
  code: string,
  phases: { name: string; operation: string; department: string; complete?: { counter: string; component: string }; std: number; batch: number }[],
  extra: { phase: number; item: string; quantity: number }[],
) {
  const productKey = id.products.get(code)!
  const process = await updateProcess(svc, actor, productKey, {
    phases: phases.map((p) => ({
      operation_key: id.operations.get(p.operation)!,
      name: p.name,
      department_key: id.departments.get(p.department) ?? null,
      parameters: { ...DEFAULT_PHASE_PARAMETERS, std_processing_time: p.std, production_batch_qt: p.batch },
      ...(p.complete
        ? {
            steps: [{ type: 'instruction' as const, title: 'Monta e dichiara i seriali', text: 'Leggi con lo scanner il seriale del componente per ogni pezzo.', media: [], fields: [], print_templates: [] }],
            traceability_level: 'complete' as const,
            counter_key: id.counters.get(p.complete.counter)!,
          }
        : {}),
    })),
  })
  const lines = phases.flatMap((p, i) =>
    p.complete
      ? [{ phase_key: process.phases[i]!._key, item_key: id.products.get(p.complete.component)!, quantity: 1, quantity_per: 'item' as const, traceability: 'complete' as const, declared_serials: true }]
      : [],
  )
  for (const e of extra) lines.push({ phase_key: process.phases[e.phase]!._key, item_key: id.products.get(e.item)!, quantity: e.quantity, quantity_per: 'item', traceability: 'none' as never, declared_serials: false })
  await updateBom(svc, actor, productKey, { lines })
  await release(svc, actor, productKey, { reason: 'Revisione iniziale (dati dimostrativi)' })
  return productKey
}

/** Declares every piece of the open batch: its component serial (from `next`) and the serial data. */
function declare(id: Ids, componentLine: () => Promise<string>, next: () => string, actor: Actor, withData: boolean) {
  return async (svc: Services, batchKey: string) => {
    const batch = await svc.db.selectFrom('batches').select('qt_total').where('id', '=', batchKey).executeTakeFirstOrThrow()
    const component_key = await componentLine()
    const pressure = id.fields.get(SERIAL_FIELD_NAMES[0])
    const outcome = id.fields.get(SERIAL_FIELD_NAMES[1])
    const pieces = Array.from({ length: batch.qt_total }, (_, i) => ({
      piece: i + 1,
      links: [{ component_key, child_serial_code: next(), confirm_not_in_stock: true }],
      ...(withData && pressure && outcome ? { data: { [pressure]: 6 + ((i * 3) % 5) / 10, [outcome]: 'Conforme' } } : {}),
    }))
    await saveSerialTempLinks(svc, actor, { batch_key: batchKey, pieces, idempotency_key: crypto.randomUUID() })
  }
}

/**
 * Seeds the two traced products, their serial fields and two completed work orders. Only once:
 * skipped when ELP-400 already has a process, or when a demo product, counter, operation or user
 * it needs is missing. Returns what it created.
 */
export async function seedDemoTraced(svc: Services): Promise<string[]> {
  const id = await ids(svc)
  const pumpKey = id.products.get(TRACED.pump)
  if (!pumpKey || Object.values(TRACED).some((c) => !id.products.has(c))) return []
  if (Object.values(TRACED_COUNTERS).some((c) => !id.counters.has(c)) || !id.operations.has('Montaggio') || !id.operations.has('Collaudo')) return []
  if (await svc.db.selectFrom('product_phases').select('id').where('product_id', '=', pumpKey).limit(1).executeTakeFirst()) return []
  const users = new Map(
    (await svc.db.selectFrom('users').select(['id', 'username', 'scope']).where('archived_at', 'is', null).execute()).map((u): [string, Actor] => [
      u.username,
      { userId: u.id, sessionId: null, scope: u.scope, tokenId: null },
    ]),
  )
  const library = users.get('libreria')
  const planner = users.get('produzione')
  const op1 = users.get('operatore1')
  const op2 = users.get('operatore2')
  if (!library || !planner || !op1 || !op2) return []
  const now = svc.clock.now()
  const created: string[] = []

  const past = at(svc, daysAgo(now, 15, 8))
  const existing = new Set((await svc.db.selectFrom('serial_fields').select('field_id').execute()).map((f) => f.field_id))
  for (const name of SERIAL_FIELD_NAMES) {
    const field = id.fields.get(name)
    if (field && !existing.has(field)) await createSerialField(past, library, { field_key: field })
  }
  const groupKey = await tracedProduct(
    past,
    library,
    id,
    TRACED.group,
    [{ name: 'Assemblaggio gruppo motore', operation: 'Montaggio', department: 'ASM', complete: { counter: TRACED_COUNTERS.group, component: TRACED.motor }, std: 240, batch: 3 }],
    [{ phase: 0, item: TRACED.screws, quantity: 0.04 }],
  )
  await tracedProduct(
    past,
    library,
    id,
    TRACED.pump,
    [
      { name: 'Montaggio elettropompa', operation: 'Montaggio', department: 'ASM', complete: { counter: TRACED_COUNTERS.pump, component: TRACED.group }, std: 360, batch: 3 },
      { name: 'Collaudo elettropompa', operation: 'Collaudo', department: 'COL', std: 180, batch: 3 },
    ],
    [{ phase: 0, item: TRACED.body, quantity: 1 }],
  )
  created.push(`${TRACED.group} and ${TRACED.pump} (level complete), serial fields`)

  const lineOf = (productKey: string) => async () =>
    (
      await svc.db
        .selectFrom('bom_lines as l')
        .innerJoin('product_revisions as r', 'r.id', 'l.revision_id')
        .select('l.id')
        .where('l.product_id', '=', productKey)
        .where('l.declared_serials', '=', true)
        .orderBy('r.number', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
    ).id

  // The groups: six, each with a motor serial as the supplier's label reads it.
  const groups = await createWorkOrder(at(svc, daysAgo(now, 8, 7)), planner, {
    product_key: groupKey,
    quantity: 6,
    start_from: dayOf(daysAgo(now, 8, 7)),
    line: 'Linea 1',
    notes: 'Sottoassiemi per le elettropompe EP400.',
    operator_key: op1.userId,
  })
  let motor = 0
  const motorCode = () => `MOT-${String(24_0101 + motor++)}`
  await playShift(svc, {
    job: groups.phases[0]!.jobs[0]!._key,
    by: op1,
    at: daysAgo(now, 8, 8),
    batches: 2,
    pauseMinutes: 6,
    beforeComplete: declare(id, lineOf(groupKey), motorCode, op1, false),
  })

  // The pumps: four, each with one of those groups inside; then tested.
  const pumps = await createWorkOrder(at(svc, daysAgo(now, 7, 7)), planner, {
    product_key: pumpKey,
    quantity: 4,
    start_from: dayOf(daysAgo(now, 7, 7)),
    line: 'Linea 1',
    operator_key: op2.userId,
  })
  const groupSerials = (
    await svc.db.selectFrom('serials').select('code').where('product_id', '=', groupKey).where('state', '=', 'final').orderBy('code').execute()
  ).map((s) => s.code)
  let g = 0
  await playShift(svc, {
    job: pumps.phases[0]!.jobs[0]!._key,
    by: op2,
    at: daysAgo(now, 7, 8),
    batches: 2,
    beforeComplete: declare(id, lineOf(pumpKey), () => groupSerials[g++]!, op2, true),
  })
  await playShift(svc, { job: pumps.phases[1]!.jobs[0]!._key, by: op2, at: daysAgo(now, 7, 13), batches: 2, pauseMinutes: 5 })
  created.push(`work orders ${groups.code} (groups) and ${pumps.code} (pumps) with their serials`)
  return created
}

