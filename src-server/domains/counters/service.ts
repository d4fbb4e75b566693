import { sql } from 'kysely'
import type { CounterCopyInput, CounterCreateInput, CounterListInput, CounterPatchInput, CounterRow } from '../../../src/domains/counters/schemas'
import {
  type CounterFrequency,
  effectiveNextValue,
  nextPeriodStart,
  parseTemplate,
  periodStart,
  renderTemplate,
  sequenceMax,
  type TemplateProblem,
  templateProblem,
} from '../../../src/domains/counters/template'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { containsPattern } from '../../db/like'
import { badRequest, conflict, isForeignKeyViolation, isUniqueViolation, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { changesOf, editData } from '../events/changes'
import { refuseIfOnlyReleased } from '../revisions/queries'
import { selectCounters } from './queries'

const counterNotFound = () => notFound('NOT_FOUND', 'counter not found')
const nameTaken = () => conflict('COUNTER_NAME_TAKEN', 'counter name already in use')
const sequenceFull = (max: number) =>
  conflict('COUNTER_SEQUENCE_FULL', `the counter has used every number of its sequence (up to ${max}) in this period: widen {#...} in the template`, {
    max,
  })

const PROBLEM_MESSAGES: Record<TemplateProblem['code'], (p: TemplateProblem) => string> = {
  COUNTER_TEMPLATE_BRACES: (p) => `template: the brace at character ${'index' in p ? p.index + 1 : '?'} has no partner; parts are written {YY}, {#####}`,
  COUNTER_TEMPLATE_UNKNOWN_PART: (p) =>
    `template: unknown part ${'part' in p ? p.part : ''}; use {YYYY}, {YY}, {MM}, {DD}, {WW} and one sequence {#...}`,
  COUNTER_TEMPLATE_SEQUENCE: () => 'template: it needs exactly one sequence {#...} of 1 to 12 digits',
  COUNTER_TEMPLATE_PERIOD_MISSING: (p) =>
    `template: a counter that resets must show its period, or its codes repeat; add ${'needs' in p ? p.needs.join(' ') : ''}`,
}

function checkedTemplate(template: string, frequency: CounterFrequency): string {
  const problem = templateProblem(template, frequency)
  if (problem) {
    const { code, ...extra } = problem
    throw badRequest(code, PROBLEM_MESSAGES[code](problem), extra)
  }
  return template
}

function checkedName(name: string): string {
  const trimmed = name.trim()
  if (!trimmed) throw badRequest('COUNTER_NAME_REQUIRED', 'counter name required')
  return trimmed
}

async function assertNameFree(db: Db, name: string, exceptId?: string) {
  let q = db.selectFrom('counters').select('id').where(sql<string>`lower(name)`, '=', name.toLowerCase())
  if (exceptId) q = q.where('id', '!=', exceptId)
  if (await q.executeTakeFirst()) throw nameTaken()
}

/** A next value the template's sequence can hold. */
function assertFits(template: string, nextValue: number) {
  const parsed = parseTemplate(template)
  if (parsed.ok && nextValue > sequenceMax(parsed.width)) throw sequenceFull(sequenceMax(parsed.width))
}

const slashed = (day: string | null) => (day === null ? null : day.replaceAll('-', '/'))

type StoredCounter = Awaited<ReturnType<ReturnType<typeof selectCounters>['executeTakeFirstOrThrow']>>

/** What the admin reads: the value and code the next request would get now, the last and next reset. */
function withNow(row: StoredCounter, now: Date): CounterRow {
  const current = periodStart(now, row.frequency)
  const nextValue = effectiveNextValue(row, current)
  const parsed = parseTemplate(row.template)
  const nextCode = parsed.ok && nextValue <= sequenceMax(parsed.width) ? renderTemplate(parsed.parts, now, nextValue) : null
  const { period_start: _, ...rest } = row
  return { ...rest, next_value: nextValue, reset_date: slashed(current), next_tick: slashed(nextPeriodStart(now, row.frequency)), next_code: nextCode }
}

export async function listCounters(svc: Services, opts: CounterListInput = {}): Promise<{ rows: CounterRow[]; total: number }> {
  const dir = opts.desc ? 'desc' : 'asc'
  let q = selectCounters(svc.db)
  let count = svc.db.selectFrom('counters as c').select((eb) => eb.fn.countAll<number>().as('n'))
  if (opts.search?.trim()) {
    const pattern = containsPattern(opts.search)
    q = q.where((eb) => eb.or([eb('c.name', 'ilike', pattern), eb('c.template', 'ilike', pattern)]))
    count = count.where((eb) => eb.or([eb('c.name', 'ilike', pattern), eb('c.template', 'ilike', pattern)]))
  }
  if (opts.sort === 'template') q = q.orderBy('c.template', dir)
  else if (opts.sort === 'frequency') q = q.orderBy('c.frequency', dir)
  else if (opts.sort === 'updated_at') q = q.orderBy('c.updated_at', dir)
  q = q.orderBy(sql`lower(c.name)`, !opts.sort || opts.sort === 'name' ? dir : 'asc').orderBy('c.id')
  if (opts.page_size) q = q.limit(opts.page_size).offset(((opts.page ?? 1) - 1) * opts.page_size)
  const [rows, counted] = await Promise.all([q.execute(), count.executeTakeFirstOrThrow()])
  const now = svc.clock.now()
  return { rows: rows.map((r) => withNow(r, now)), total: Number(counted.n) }
}

export async function getCounter(svc: Services, key: string): Promise<CounterRow> {
  const row = isUuid(key) ? await selectCounters(svc.db).where('c.id', '=', key).executeTakeFirst() : undefined
  if (!row) throw counterNotFound()
  return withNow(row, svc.clock.now())
}

/** `POST counter`: name required and unique, template by the grammar; numbering starts now. */
export async function createCounter(svc: Services, actor: Actor, input: CounterCreateInput): Promise<CounterRow> {
  const name = checkedName(input.name)
  const frequency = input.frequency ?? 'never'
  const template = checkedTemplate(input.template, frequency)
  const nextValue = input.next_value ?? 1
  assertFits(template, nextValue)
  const now = svc.clock.now()
  try {
    const id = await svc.db.transaction().execute(async (trx) => {
      await assertNameFree(trx, name)
      const { id } = await trx
        .insertInto('counters')
        .values({ name, template, frequency, next_value: nextValue, period_start: periodStart(now, frequency), created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
      await appendEvent(trx, actor, { event_type: 'COUNTER_CREATED', subject_type: 'counter', subject_key: id, data: { name, template, frequency } }, now)
      return id
    })
    return getCounter(svc, id)
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken()
    throw e
  }
}

/**
 * `PATCH counter/{key}`. A new next_value or frequency applies from the current period (no reset
 * until its end). Lowering the next value or changing the template can make a code that was
 * already given: the serials' unique code refuses it then (SERIAL_NEW_ALREADY_PRESENT).
 */
export async function patchCounter(svc: Services, actor: Actor, key: string, patch: CounterPatchInput): Promise<CounterRow> {
  if (!isUuid(key)) throw counterNotFound()
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const old = await selectCounters(trx).where('c.id', '=', key).forUpdate().executeTakeFirst()
      if (!old) throw counterNotFound()
      const name = patch.name === undefined ? old.name : checkedName(patch.name)
      const frequency = patch.frequency ?? old.frequency
      const template = checkedTemplate(patch.template ?? old.template, frequency)
      const current = periodStart(now, frequency)
      const nextValue = patch.next_value ?? (frequency === old.frequency ? effectiveNextValue(old, current) : old.next_value)
      assertFits(template, nextValue)
      const changed = (['name', 'template', 'frequency', 'next_value'] as const).filter(
        (k) => patch[k] !== undefined && ({ name, template, frequency, next_value: nextValue } as Record<string, unknown>)[k] !== old[k],
      )
      if (changed.length === 0) return
      if (changed.includes('name') && name.toLowerCase() !== old.name.toLowerCase()) await assertNameFree(trx, name, key)
      await trx
        .updateTable('counters')
        .set({ name, template, frequency, next_value: nextValue, period_start: current, updated_at: now })
        .where('id', '=', key)
        .execute()
      await appendEvent(trx, actor, { event_type: 'COUNTER_UPDATED', subject_type: 'counter', subject_key: key, data: editData(changesOf(old, { name, template, frequency, next_value: nextValue }, changed), { name }) }, now)
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken()
    throw e
  }
  return getCounter(svc, key)
}

/** "Name (2)", "Name (3)" ...: the first free one, whatever the case, within the name limit. */
async function copyName(db: Db, name: string): Promise<string> {
  const taken = new Set(
    (await db.selectFrom('counters').select(sql<string>`lower(name)`.as('n')).where('name', 'ilike', `${name.replace(/[\\%_]/g, (c) => `\\${c}`)} (%)`).execute()).map(
      (r) => r.n,
    ),
  )
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`
    const candidate = `${name.slice(0, 200 - suffix.length)}${suffix}`
    if (!taken.has(candidate.toLowerCase())) return candidate
  }
}

/** `POST counter/copy` (mass copy): all copies or none; each copy numbers from 1 in the current period. */
export async function copyCounters(svc: Services, actor: Actor, input: CounterCopyInput): Promise<CounterRow[]> {
  const keys = [...new Set(input.keys)]
  if (!keys.every(isUuid)) throw counterNotFound()
  const now = svc.clock.now()
  try {
    const ids = await svc.db.transaction().execute(async (trx) => {
      const sources = await selectCounters(trx).where('c.id', 'in', keys).orderBy(sql`lower(c.name)`).execute()
      if (sources.length !== keys.length) throw counterNotFound()
      const made: string[] = []
      for (const source of sources) {
        const name = await copyName(trx, source.name)
        const { id } = await trx
          .insertInto('counters')
          .values({
            name,
            template: source.template,
            frequency: source.frequency,
            period_start: periodStart(now, source.frequency),
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        await appendEvent(trx, actor, { event_type: 'COUNTER_CREATED', subject_type: 'counter', subject_key: id, data: { name, copy_of: source._key } }, now)
        made.push(id)
      }
      return made
    })
    const rows = await selectCounters(svc.db).where('c.id', 'in', ids).orderBy(sql`lower(c.name)`).execute()
    return rows.map((r) => withNow(r, now))
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken()
    throw e
  }
}

/** `DELETE counter/{key}`: serials and phases refer to their counter (RESTRICT): one in use stays (409 COUNTER_IN_USE). */
export async function deleteCounter(svc: Services, actor: Actor, key: string): Promise<{ _key: string }> {
  if (!isUuid(key)) throw counterNotFound()
  const now = svc.clock.now()
  try {
    await svc.db.transaction().execute(async (trx) => {
      const old = await trx.selectFrom('counters').select('name').where('id', '=', key).forUpdate().executeTakeFirst()
      if (!old) throw counterNotFound()
      await trx.deleteFrom('counters').where('id', '=', key).execute()
      await appendEvent(trx, actor, { event_type: 'COUNTER_DELETED', subject_type: 'counter', subject_key: key, data: { name: old.name } }, now)
    })
  } catch (e) {
    if (isForeignKeyViolation(e)) await refuseIfOnlyReleased(svc.db, 'counter_id', key)
    if (isForeignKeyViolation(e)) throw conflict('COUNTER_IN_USE', 'cannot delete: the counter made serials or a phase uses it')
    throw e
  }
  return { _key: key }
}

/**
 * The next code of a counter, taken in the caller's transaction (the one that inserts the serial).
 * One UPDATE ... RETURNING: the row lock orders concurrent takers on any number of app instances,
 * and a rollback gives the number back. The sequence restarts at 1 when `now` (plant calendar)
 * is in another period than the stored one. A sequence past its width is refused
 * (409 COUNTER_SEQUENCE_FULL, which rolls the caller's transaction back).
 */
export async function nextCounterCode(trx: Db, counterId: string, now: Date): Promise<{ code: string; value: number }> {
  if (!isUuid(counterId)) throw counterNotFound()
  const periods = { year: periodStart(now, 'year'), month: periodStart(now, 'month'), week: periodStart(now, 'week'), day: periodStart(now, 'day') }
  const current = sql<string | null>`(case frequency when 'year' then ${periods.year}::date when 'month' then ${periods.month}::date
    when 'week' then ${periods.week}::date when 'day' then ${periods.day}::date else null end)`
  const taken = await trx
    .updateTable('counters')
    .set({
      // Right-hand sides read the row as it was: the old period decides whether to restart.
      next_value: sql<number>`(case when period_start is not distinct from ${current} then next_value else 1 end) + 1`,
      period_start: current,
    })
    .where('id', '=', counterId)
    .returning(['template', sql<number>`next_value - 1`.as('value')])
    .executeTakeFirst()
  if (!taken) throw counterNotFound()
  const parsed = parseTemplate(taken.template)
  if (!parsed.ok) throw new Error(`counter ${counterId} holds a template the grammar refuses`)
  const value = Number(taken.value)
  if (value > sequenceMax(parsed.width)) throw sequenceFull(sequenceMax(parsed.width))
  return { code: renderTemplate(parsed.parts, now, value), value }
}
