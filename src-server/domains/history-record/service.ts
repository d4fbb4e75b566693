/**
 * The device history record ("Registro di produzione", issue 22): everything recorded about how a
 * work order, or one serial of it, was built. It only reads, and reads each domain through that
 * domain's own service: the work order (quantities, phases, jobs), its revision, the batches with
 * their steps and values (execution), the serials and genealogy (traceability), the issues
 * (quality) and the material movements (warehouse).
 */
import type { HistoryRecord, RecordIssue, RecordPhase, RecordSerial } from '../../../src/domains/history-record/schemas'
import type { IssueListInput, IssueRow } from '../../../src/domains/issues/schemas'
import type { MovementRow } from '../../../src/domains/movements/schemas'
import type { SerialDetail } from '../../../src/domains/serials/schemas'
import type { SignatureView } from '../../../src/domains/signatures/schemas'
import { isUuid } from '../../../src/uuid'
import type { Services } from '../../context'
import { notFound, unprocessable } from '../../errors'
import { workOrderBatchRecords } from '../execution/batch-record'
import { listIssues } from '../issues/service'
import { listMovements } from '../movements/list'
import { revisionSummary } from '../revisions/service'
import { getGenealogy, getSerial, listSerials } from '../serials/service'
import { getWorkOrderSerials } from '../serials/work-order-serials'
import { recordKeyOf } from '../signatures/records'
import { listWorkOrderSignatures, signaturesBySubject } from '../signatures/service'
import { getWorkOrder } from '../work-orders/detail'
import { recordCorrections } from './corrections'

type Svc = Services

/** The largest page the issue and movement lists give; the record reads page after page. */
const ISSUE_PAGE = 100
const MOVEMENT_PAGE = 100

/** `GET work-order/{key}/history-record`: by key or visible code (WO000007); 404 when unknown. */
export function workOrderRecord(svc: Svc, key: string): Promise<HistoryRecord> {
  return buildRecord(svc, key, null)
}

/**
 * `GET serial/{key}/history-record`: by key or code. The serial, what it is made of (every level)
 * and what it went into, with its work order's record narrowed to the batches that made it or
 * fitted its components (all of them when it was recorded outside any batch), the issues of those
 * batches and of the work order as a whole, and the movements of those batches, of the work order
 * as a whole and of the serial itself.
 */
export async function serialRecord(svc: Svc, key: string): Promise<HistoryRecord> {
  const serial = await findSerial(svc, key)
  if (!serial.work_order_key) throw unprocessable('SERIAL_WITHOUT_WORK_ORDER', `serial ${serial.code} was not made in a work order: it has no production record`)
  const genealogy = await getGenealogy(svc, serial._key, 'backward')
  const { components: _c, history: _h, ...row } = serial
  const own: RecordSerial = { ...row, contained_in: serial.contained_in, genealogy: genealogy.rows, genealogy_truncated: genealogy.truncated }
  return buildRecord(svc, serial.work_order_key, own, serial)
}

async function findSerial(svc: Svc, key: string): Promise<SerialDetail> {
  if (isUuid(key)) return getSerial(svc, key)
  const found = await listSerials(svc, { code: key })
  const row = found.rows[0]
  if (!row) throw notFound('NOT_FOUND', `serial ${key} not found: give its code or its key`)
  return getSerial(svc, row._key)
}

async function buildRecord(svc: Svc, key: string, serial: RecordSerial | null, detail?: SerialDetail): Promise<HistoryRecord> {
  const wo = await getWorkOrder(svc, key)
  // A serial's batches: the one that made it and those where its components were fitted. A serial
  // recorded outside any batch narrows nothing: its work order's whole record is its story.
  const own = detail ? [...new Set([detail.batch_key, ...detail.components.map((c) => c.batch_key)].filter((b): b is string => b !== null))] : []
  const batches = own.length ? own : undefined
  // Every signature filed with the work order: its batch steps', its jobs' corrections' and its
  // movements' reverts'. Issues' and serials' signatures are filed with them and read by key below.
  const woSignatures = await listWorkOrderSignatures(svc.db, wo._key)
  const bySubject = Map.groupBy(woSignatures, (sig) => `${sig.subject_type}/${sig.subject_key}`)
  const byRecord = Map.groupBy(woSignatures, (sig) => `${sig.subject_type}/${recordKeyOf(sig.subject_type, sig.subject_key)}`)
  /** A batch step's (`<batch>:<step>`) or a job correction's (`<job>:<event>`) signatures. */
  const signaturesOf = (type: SignatureView['subject_type'], subjectKey: string) => bySubject.get(`${type}/${subjectKey}`) ?? []
  const [revision, jobsByPhase, serials, issues, movements] = await Promise.all([
    revisionSummary(svc, wo.product_key, wo.revision.number),
    workOrderBatchRecords(svc.db, wo._key, (batch, step) => signaturesOf('batch_step', `${batch}:${step}`), batches),
    getWorkOrderSerials(svc, wo._key),
    allIssues(svc, { work_order_key: wo._key, sort: 'opened_at', dir: 'asc' }),
    allMovements(svc, wo._key),
  ])
  const phases: RecordPhase[] = wo.phases.map((ph) => {
    const jobs = jobsByPhase.get(ph._key) ?? []
    return {
      _key: ph._key,
      position: ph.position,
      name: ph.name,
      completed_qt: ph.completed_qt,
      scrapped_qt: jobs.reduce((n, j) => n + j.batches.reduce((m, b) => m + b.scrapped_qt, 0), 0),
      jobs,
    }
  })
  const inBatches = (b: string | null) => !batches || b === null || batches.includes(b)
  const recordIssues = issues.filter((i) => inBatches(i.batch_key))
  const listed = detail
    ? {
        produced: serials.produced.filter((s) => s.serial_key === detail._key),
        produced_total: 1,
        consumed: serials.consumed.filter((c) => c.parent_key === detail._key),
        consumed_total: detail.components.length,
      }
    : { produced: serials.produced, produced_total: serials.produced_total, consumed: serials.consumed, consumed_total: serials.consumed_total }
  // Corrections of the serials the record lists: a serial's record, the serial and everything in it.
  const serialCodes = new Map([...listed.produced, ...listed.consumed, ...(serial?.genealogy ?? [])].map((x) => [x.serial_key, x.code]))
  const [issueSignatures, corrections] = await Promise.all([
    signaturesBySubject(
      svc.db,
      'issue',
      recordIssues.map((i) => i._key),
    ),
    recordCorrections(svc.db, { phases, serialCodes, jobSignatures: (subjectKey) => signaturesOf('job_correction', subjectKey) }),
  ])
  // Scrap counts where the work order's output is counted: its last phase.
  const last = wo.phases.at(-1)
  const scrapped = batches ? phases.reduce((n, p) => n + p.scrapped_qt, 0) : (phases.find((p) => p._key === last?._key)?.scrapped_qt ?? 0)
  return {
    kind: serial ? 'serial' : 'work_order',
    generated_at: svc.clock.now().getTime(),
    work_order: {
      _key: wo._key,
      code: wo.code,
      status: wo.status,
      line: wo.line,
      start_from: wo.start_from,
      due_by: wo.due_by,
      created_at: wo.created_at,
      closed_at: wo.closed_at,
      notes: wo.notes,
    },
    product: { _key: wo.product_key, code: wo.product_code, description: wo.product_description },
    revision,
    quantities: { planned: wo.planned_qt, done: wo.completed_qt, scrapped },
    serial,
    phases: batches ? phases.filter((p) => p.jobs.length > 0) : phases,
    serials: listed,
    corrections,
    issues: recordIssues.map((i) => ({ ...recordIssue(i), signatures: issueSignatures.get(i._key) ?? [] })),
    movements: movements
      .filter((m) => inBatches(m.batch_key) || (detail !== undefined && m.serial === detail.code))
      .map((m) => ({ ...m, signatures: byRecord.get(`movement_revert/${m._key}`) ?? [] })),
  }
}

const recordIssue = (i: IssueRow): Omit<RecordIssue, 'signatures'> => ({
  _key: i._key,
  code: i.code,
  type_code: i.type_code,
  type_name: i.type_name,
  title: i.title,
  description: i.description,
  state: i.state,
  critical: i.critical,
  phase_name: i.phase_name,
  batch_key: i.batch_key,
  opened_by_name: i.opened_by_name,
  opened_at: i.opened_at,
  closed_at: i.closed_at,
  closed_by_name: i.closed_by_name,
})

async function allIssues(svc: Svc, filter: IssueListInput): Promise<IssueRow[]> {
  const out: IssueRow[] = []
  for (let page = 1; ; page++) {
    const { rows, total } = await listIssues(svc, { ...filter, page, page_size: ISSUE_PAGE })
    out.push(...rows)
    if (rows.length < ISSUE_PAGE || out.length >= total) return out
  }
}

/** The work order's movements, oldest first. */
async function allMovements(svc: Svc, workOrderKey: string): Promise<MovementRow[]> {
  const out: MovementRow[] = []
  for (let page = 1; ; page++) {
    const { rows } = await listMovements(svc, { work_order_key: workOrderKey, page, page_size: MOVEMENT_PAGE })
    out.push(...rows)
    if (rows.length < MOVEMENT_PAGE) return out.sort((a, b) => a.number - b.number)
  }
}
