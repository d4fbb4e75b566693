/**
 * The batches of a work order as its history record tells them (issue 22): each batch with who
 * opened and completed it, the components it consumed (the BATCH_COMPLETED event's `consumed`),
 * and its steps with the title and text of the work order's revision and the values recorded,
 * each value named as that revision released its field. A handful of set-based reads, whatever
 * the number of batches.
 */
import { sql } from 'kysely'
import type { RecordBatch, RecordJob, RecordStep, RecordValue } from '../../../src/domains/history-record/schemas'
import type { FormDataEntry } from '../../../src/domains/execution/schemas'
import type { Db } from '../../db/connect'
import { ms, msOrNull } from '../../db/epoch'
import { fieldDefinitions, phaseInfos } from './queries'

const personName = sql<string>`coalesce(nullif(trim(u.name || ' ' || u.surname), ''), u.username)`

type Consumed = { item_key: string; item_code: string; quantity: number }

/**
 * The jobs of a work order by phase, each with its batches (oldest first) and their steps.
 * `onlyBatches` keeps those batches (a serial's record); jobs left without any are dropped then.
 * `signaturesOf` gives a batch step's signatures (kept by the signatures domain, which the caller reads).
 */
export async function workOrderBatchRecords(
  db: Db,
  workOrderId: string,
  signaturesOf: (batchKey: string, stepKey: string) => RecordStep['signatures'],
  onlyBatches?: readonly string[],
): Promise<Map<string, RecordJob[]>> {
  if (onlyBatches && onlyBatches.length === 0) return new Map()
  const jobs = await db
    .selectFrom('jobs as j')
    .leftJoin('users as u', 'u.id', 'j.operator_id')
    .select(['j.id', 'j.phase_id', 'j.quantity', 'j.completed_qt', 'j.status', 'j.operator_id', sql<string | null>`case when u.id is null then null else ${personName} end`.as('operator_name')])
    .where('j.work_order_id', '=', workOrderId)
    .orderBy('j.position')
    .orderBy('j.created_at')
    .orderBy('j.id')
    .execute()
  let batchQuery = db
    .selectFrom('batches as b')
    .innerJoin('jobs as j', 'j.id', 'b.job_id')
    .select([
      'b.id',
      'b.job_id',
      'b.number',
      'b.status',
      'b.qt_total',
      'b.scrapped_qt',
      'b.opened_by',
      ms('b.opened_at').as('opened_at'),
      'b.completed_by',
      msOrNull('b.completed_at').as('completed_at'),
    ])
    .where('j.work_order_id', '=', workOrderId)
  if (onlyBatches) batchQuery = batchQuery.where('b.id', 'in', [...onlyBatches])
  const batches = await batchQuery.orderBy('b.job_id').orderBy('b.number').execute()
  let stepQuery = db
    .selectFrom('batch_steps as s')
    .innerJoin('batches as b', 'b.id', 's.batch_id')
    .innerJoin('jobs as j', 'j.id', 'b.job_id')
    .select(['s.batch_id', 's.step_key', 's.position', 's.type', 's.done', 's.critical', 's.form_data', 's.done_by', msOrNull('s.done_at').as('done_at')])
    .where('j.work_order_id', '=', workOrderId)
  if (onlyBatches) stepQuery = stepQuery.where('b.id', 'in', [...onlyBatches])
  const jobIds = jobs.map((j) => j.id)
  const [steps, completions, phases] = await Promise.all([
    stepQuery.orderBy('s.batch_id').orderBy('s.position').execute(),
    jobIds.length
      ? db
          .selectFrom('events')
          .select(sql<string>`data->>'batch_key'`.as('batch_key'))
          .select(sql<Consumed[] | null>`data->'consumed'`.as('consumed'))
          .where('subject_type', '=', 'job')
          .where('subject_key', 'in', jobIds)
          .where('event_type', '=', 'BATCH_COMPLETED')
          .execute()
      : [],
    phaseInfos(
      db,
      jobs.map((j) => j.phase_id),
    ),
  ])

  const userIds = new Set<string>()
  for (const b of batches) for (const id of [b.opened_by, b.completed_by]) if (id) userIds.add(id)
  for (const s of steps) if (s.done_by) userIds.add(s.done_by)
  const fieldKeys = new Map<string, Set<string>>()
  const phaseOfBatch = new Map(batches.map((b) => [b.id, jobs.find((j) => j.id === b.job_id)!.phase_id]))
  for (const s of steps) {
    const phase = phaseOfBatch.get(s.batch_id)!
    const set = fieldKeys.get(phase) ?? new Set<string>()
    for (const entry of s.form_data as FormDataEntry[]) set.add(entry.field_key)
    for (const key of phases.get(phase)?.steps.find((d) => d._key === s.step_key)?.fields ?? []) set.add(key)
    fieldKeys.set(phase, set)
  }
  const [users, fieldsByPhase] = await Promise.all([
    userIds.size ? db.selectFrom('users as u').select(['u.id', personName.as('name')]).where('u.id', 'in', [...userIds]).execute() : [],
    Promise.all([...fieldKeys].map(async ([phase, keys]) => [phase, new Map((await fieldDefinitions(db, phase, [...keys])).map((f) => [f._key, f]))] as const)),
  ])
  const userName = new Map(users.map((u) => [u.id, u.name]))
  const person = (id: string | null) => (id ? { _key: id, name: userName.get(id) ?? '' } : null)
  const fields = new Map(fieldsByPhase)
  const consumedOf = new Map(completions.map((c) => [c.batch_key, c.consumed ?? []]))

  const stepsOf = new Map<string, RecordStep[]>()
  for (const s of steps) {
    const phase = phaseOfBatch.get(s.batch_id)!
    const def = phases.get(phase)?.steps.find((d) => d._key === s.step_key)
    const known = fields.get(phase)
    const entries = s.form_data as FormDataEntry[]
    // Values in the order the step lists its fields; answers to fields the step no longer lists follow.
    const order = [...(def?.fields ?? []), ...entries.map((e) => e.field_key).filter((k) => !def?.fields.includes(k))]
    const values = order.flatMap((key) => {
      const entry = entries.find((e) => e.field_key === key)
      if (!entry) return []
      const field = known?.get(key)
      return [{ field_key: key, name: field?.name ?? key, type: (field?.type ?? 'text') as RecordValue['type'], value: entry.value }]
    })
    const list = stepsOf.get(s.batch_id) ?? []
    list.push({
      _key: s.step_key,
      position: s.position,
      type: s.type as RecordStep['type'],
      title: def?.title ?? '',
      text: def?.text ?? '',
      done: s.done,
      critical: s.critical,
      done_by: person(s.done_by),
      done_at: s.done_at,
      values,
      signatures: signaturesOf(s.batch_id, s.step_key),
    })
    stepsOf.set(s.batch_id, list)
  }

  const batchesOf = new Map<string, RecordBatch[]>()
  for (const b of batches) {
    const list = batchesOf.get(b.job_id) ?? []
    list.push({
      _key: b.id,
      number: b.number,
      status: b.status,
      qt_total: b.qt_total,
      scrapped_qt: b.scrapped_qt,
      opened_by: person(b.opened_by),
      opened_at: b.opened_at,
      completed_by: person(b.completed_by),
      completed_at: b.completed_at,
      consumed: (consumedOf.get(b.id) ?? []).map((c) => ({ item_key: c.item_key, item_code: c.item_code, quantity: Number(c.quantity) })),
      steps: stepsOf.get(b.id) ?? [],
    })
    batchesOf.set(b.job_id, list)
  }

  const byPhase = new Map<string, RecordJob[]>()
  for (const j of jobs) {
    const own = batchesOf.get(j.id) ?? []
    if (onlyBatches && own.length === 0) continue
    const list = byPhase.get(j.phase_id) ?? []
    list.push({
      _key: j.id,
      operator: j.operator_id ? { _key: j.operator_id, name: j.operator_name ?? '' } : null,
      quantity: j.quantity,
      completed_qt: j.completed_qt,
      status: j.status,
      batches: own,
    })
    byPhase.set(j.phase_id, list)
  }
  return byPhase
}
