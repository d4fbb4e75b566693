import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import * as v from 'valibot'
import {
  csvRows,
  type ImportPreview,
  type ImportPreviewRow,
  type ImportResult,
  type ImportRowError,
  ImportRowInput,
  IMPORT_MAX_ROWS,
} from '../../../src/domains/flows/imports'
import { WorkOrderCreateInput } from '../../../src/domains/work-orders/schemas'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { AppError, badRequest, conflict, unprocessable } from '../../errors'
import { inputIssues } from '../../input-issues'
import type { InputIssue } from '../../../src/input-issues'
import { listProducts } from '../products/service'
import { listUsers } from '../users/service'
import { createWorkOrder } from '../work-orders/create'

/**
 * Work order imports (inbound data flows). Every row is created through the work-orders service
 * (createWorkOrder: the same rules, events and webhooks as the form), all rows in ONE transaction:
 * an import with any bad row creates nothing and answers every row's error. A preview runs the
 * very same import and rolls it back, so it shows exactly what an import would do (its only trace:
 * work order numbers it drew are skipped, as after any refused creation).
 * Idempotency: the caller's Idempotency-Key is claimed in the import's transaction; a retry with
 * the same key and the same rows gets the first answer again (nothing created twice), with other
 * rows 409 IDEMPOTENCY_KEY_REUSED. A concurrent retry waits for the first to finish.
 */

type Svc = Services

class Rollback extends Error {
  constructor(readonly rows: Outcome[]) {
    super('rolled back')
  }
}

type Outcome = ImportPreviewRow & { created?: { _key: string; code: string } }

/** "1.000" and "1 000" are a thousand pieces; "12,0" is 12; anything else with decimals is refused. */
function parseQuantity(raw: number | string): number | null {
  if (typeof raw === 'number') return Number.isInteger(raw) ? raw : null
  const s = raw.trim()
  if (/^\d{1,3}([.\s']\d{3})+$/.test(s)) return Number(s.replace(/[.\s']/g, ''))
  const m = /^(\d+)(?:[.,]0+)?$/.exec(s)
  return m ? Number(m[1]) : null
}

type RowValues = Record<string, unknown>
/** The work order's keys that a row names by another column (the file has codes, the service keys). */
const FILE_FIELD: Record<string, string> = { product_key: 'product_code', operator_key: 'operator_username' }

/** The value of a column as the file had it, so the preview can show what is wrong. */
function valueOf(r: RowValues, field: string | null): string | null {
  const value = field ? r[field] : undefined
  return value === undefined || value === null ? null : typeof value === 'string' ? value : JSON.stringify(value)
}

function rowError(row: number, field: string | null, code: string, message: string, r: RowValues, issue?: Pick<InputIssue, 'kind' | 'limit'>): ImportRowError {
  const out: ImportRowError = { row, field, code, message, value: valueOf(r, field) }
  if (issue) out.kind = issue.kind
  if (issue?.limit !== undefined) out.limit = issue.limit
  return out
}

function issueErrors(row: number, issues: InputIssue[], code: string, r: RowValues): ImportRowError[] {
  return issues.map((i) => {
    const field = i.path ? (FILE_FIELD[i.path] ?? i.path) : null
    return rowError(row, field, code, i.path ? `${i.path}: ${i.message}` : i.message, r, i)
  })
}

function errorsOf(row: number, e: unknown, r: RowValues): ImportRowError[] {
  if (e instanceof AppError) {
    const issues = (e.extra?.issues as InputIssue[] | undefined) ?? []
    if (issues.length) return issueErrors(row, issues, e.appCode, r)
    return [rowError(row, null, e.appCode, e.message, r)]
  }
  throw e
}

async function productKey(svc: Svc, code: string): Promise<string | null> {
  const { rows } = await listProducts(svc, { search: code, page_size: 100 })
  return rows.find((p) => p.code.toLowerCase() === code.toLowerCase())?._key ?? null
}

async function operatorKey(svc: Svc, username: string): Promise<string | null> {
  const users = await listUsers(svc, { search: username })
  return users.find((u) => u.username.toLowerCase() === username.toLowerCase())?._key ?? null
}

/** Runs every row inside `trx` (one savepoint per row, so every row's error is collected). */
async function runRows(svc: Svc, actor: Actor, trx: Db, rows: unknown[]): Promise<Outcome[]> {
  const inTrx: Svc = { ...svc, db: trx }
  const outcomes: Outcome[] = []
  for (const [index, raw] of rows.entries()) {
    const row = index + 1
    const shape = v.safeParse(ImportRowInput, raw)
    const r = (typeof raw === 'object' && raw ? raw : {}) as Record<string, unknown>
    const outcome: Outcome = {
      row,
      product_code: typeof r.product_code === 'string' ? r.product_code : '',
      quantity: null,
      start_from: typeof r.start_from === 'string' ? r.start_from : null,
      due_by: typeof r.due_by === 'string' ? r.due_by : null,
      line: typeof r.line === 'string' ? r.line : '',
      operator_username: typeof r.operator_username === 'string' ? r.operator_username : null,
      errors: [],
    }
    outcomes.push(outcome)
    if (!shape.success) {
      outcome.errors = issueErrors(row, inputIssues(shape.issues), 'INVALID_INPUT', r)
      continue
    }
    const input = shape.output
    outcome.quantity = parseQuantity(input.quantity)
    if (outcome.quantity === null) outcome.errors.push(rowError(row, 'quantity', 'INVALID_INPUT', 'quantity must be a whole number of pieces', r, { kind: 'integer' }))
    const product = await productKey(inTrx, input.product_code)
    if (!product) outcome.errors.push(rowError(row, 'product_code', 'UNKNOWN_PRODUCT', `no product has the code ${input.product_code}`, r))
    let operator: string | null = null
    if (input.operator_username) {
      operator = await operatorKey(inTrx, input.operator_username)
      if (!operator) outcome.errors.push(rowError(row, 'operator_username', 'UNKNOWN_OPERATOR', `no user is called ${input.operator_username}`, r))
    }
    if (outcome.errors.length) continue
    const create = v.safeParse(WorkOrderCreateInput, {
      product_key: product,
      quantity: outcome.quantity,
      ...(input.start_from ? { start_from: input.start_from } : {}),
      ...(input.due_by ? { due_by: input.due_by } : {}),
      ...(input.line ? { line: input.line } : {}),
      ...(input.notes ? { notes: input.notes } : {}),
      ...(operator ? { operator_key: operator } : {}),
    })
    if (!create.success) {
      outcome.errors = issueErrors(row, inputIssues(create.issues), 'INVALID_INPUT', r)
      continue
    }
    outcome.start_from = create.output.start_from ?? null
    outcome.due_by = create.output.due_by ?? null
    await sql`savepoint import_row`.execute(trx)
    try {
      const wo = await createWorkOrder(inTrx, actor, create.output)
      outcome.created = { _key: wo._key, code: wo.code }
      await sql`release savepoint import_row`.execute(trx)
    } catch (e) {
      await sql`rollback to savepoint import_row`.execute(trx)
      outcome.errors = errorsOf(row, e, r)
    }
  }
  return outcomes
}

const preview = (outcomes: Outcome[]): ImportPreview => {
  const rows = outcomes.map(({ created: _, ...r }) => r)
  const invalid = rows.filter((r) => r.errors.length).length
  return { rows, valid: rows.length - invalid, invalid }
}

function checkedRows(rows: unknown[]): unknown[] {
  if (rows.length === 0) throw unprocessable('IMPORT_EMPTY', 'there are no rows to import')
  if (rows.length > IMPORT_MAX_ROWS) throw badRequest('INVALID_INPUT', `at most ${IMPORT_MAX_ROWS} rows per import`)
  return rows
}

/** CSV text to rows, or 400 IMPORT_CSV_INVALID saying where it is unreadable. */
export function rowsOfCsv(text: string): unknown[] {
  const parsed = csvRows(text)
  if (!parsed.ok) throw badRequest('IMPORT_CSV_INVALID', `the CSV cannot be read: ${parsed.message}`)
  return parsed.rows
}

/** What an import of these rows would create, and every row's errors; nothing is written. */
export async function previewImport(svc: Svc, actor: Actor, rows: unknown[]): Promise<ImportPreview> {
  checkedRows(rows)
  try {
    await svc.db.transaction().execute(async (trx) => {
      throw new Rollback(await runRows(svc, actor, trx, rows))
    })
  } catch (e) {
    if (e instanceof Rollback) return preview(e.rows)
    throw e
  }
  throw new Error('unreachable')
}

/** Creates every row's work order, or none (422 IMPORT_ROWS_INVALID with `errors` and `rows`). */
export async function importWorkOrders(svc: Svc, actor: Actor, rows: unknown[], idempotencyKey: string, kind: 'json' | 'csv'): Promise<ImportResult> {
  checkedRows(rows)
  const requestHash = createHash('sha256').update(JSON.stringify(rows)).digest('hex')
  return svc.db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('import_runs')
      .values({ idempotency_key: idempotencyKey, user_id: actor.userId, kind, request_hash: requestHash, response: 'null', created_at: svc.clock.now() })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('idempotency_key')
      .executeTakeFirst()
    if (!claimed) {
      const prior = await trx.selectFrom('import_runs').select(['user_id', 'request_hash', 'response']).where('idempotency_key', '=', idempotencyKey).executeTakeFirstOrThrow()
      if (prior.user_id !== actor.userId || prior.request_hash !== requestHash) {
        throw conflict('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was already used for another import: make a new one per import')
      }
      return { ...(prior.response as ImportResult), replayed: true }
    }
    const outcomes = await runRows(svc, actor, trx, rows)
    const errors = outcomes.flatMap((o) => o.errors)
    if (errors.length) {
      const bad = new Set(errors.map((e) => e.row)).size
      throw unprocessable('IMPORT_ROWS_INVALID', `${bad} of ${outcomes.length} rows cannot be imported: nothing was created (see errors)`, { errors, rows: preview(outcomes).rows })
    }
    const result: ImportResult = { created: outcomes.map((o) => ({ row: o.row, ...o.created! })), replayed: false }
    await trx.updateTable('import_runs').set({ response: JSON.stringify(result) }).where('idempotency_key', '=', idempotencyKey).execute()
    return result
  })
}

/** The Idempotency-Key header, required on REST imports. */
export function idempotencyKeyOf(header: string | undefined): string {
  const key = header?.trim()
  if (!key) throw badRequest('IDEMPOTENCY_KEY_REQUIRED', 'send an Idempotency-Key header (one new value per import, the same on a retry)')
  if (key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) throw badRequest('INVALID_INPUT', 'Idempotency-Key: 1-200 printable ASCII characters without spaces')
  return key
}
