import * as v from 'valibot'
import { SignatureView } from '../signatures/schemas'
import { FIELD_TYPES } from '../form-fields/schemas'
import { IssueRow } from '../issues/schemas'
import { MovementRow } from '../movements/schemas'
import { STEP_TYPES } from '../process/steps'
import { RevisionSummary } from '../revisions/schemas'
import { GenealogyRow, SerialLinkRow, SerialRow } from '../serials/schemas'
import { WorkOrderConsumedSerial, WorkOrderProducedSerial } from '../serials/work-order-serials'

/**
 * The device history record ("Registro di produzione", issue 22): the printable story of one work
 * order, or of one serial within its work order. The same content answers as JSON and as a PDF.
 */

/** Who may read a record: those who follow production, traceability, quality and the auditors. */
export const HISTORY_RECORD_READERS = ['admin', 'production', 'traceability', 'quality', 'audit'] as const

export const RECORD_LANGUAGES = ['it', 'en'] as const
export type RecordLanguage = (typeof RECORD_LANGUAGES)[number]

const Key = v.pipe(v.string(), v.trim(), v.minLength(1, 'give a key or a code'), v.maxLength(200, 'a key or code has at most 200 characters'))

/** A work order by key or visible code (WO000007); a serial by key or code. */
export const RecordInput = v.object({ key: Key })
export const RecordPdfInput = v.object({
  key: Key,
  /** The PDF's language; default the user's preference, else the browser's (Accept-Language), else Italian. */
  lang: v.optional(v.picklist(RECORD_LANGUAGES, 'lang is it or en')),
})

const Person = v.nullable(v.object({ _key: v.string(), name: v.string() }))

export const RecordValue = v.object({
  field_key: v.string(),
  /** The field's name as the work order's revision released it. */
  name: v.string(),
  type: v.picklist(FIELD_TYPES),
  value: v.unknown(),
})
export type RecordValue = v.InferOutput<typeof RecordValue>

export const RecordStep = v.object({
  _key: v.string(),
  position: v.number(),
  type: v.picklist(STEP_TYPES),
  /** Title and text as in the work order's revision. */
  title: v.string(),
  text: v.string(),
  done: v.boolean(),
  critical: v.boolean(),
  done_by: Person,
  done_at: v.nullable(v.number()),
  values: v.array(RecordValue),
  /** The step's electronic signatures (signer, then second signer), each saying whether it still verifies. */
  signatures: v.array(SignatureView),
})
export type RecordStep = v.InferOutput<typeof RecordStep>

export const RecordConsumption = v.object({ item_key: v.string(), item_code: v.string(), quantity: v.number() })

export const RecordBatch = v.object({
  _key: v.string(),
  number: v.number(),
  status: v.picklist(['open', 'completed', 'cancelled']),
  qt_total: v.number(),
  scrapped_qt: v.number(),
  opened_by: Person,
  opened_at: v.number(),
  completed_by: Person,
  completed_at: v.nullable(v.number()),
  /** Bom components the batch consumed at completion (quantities per the bom). */
  consumed: v.array(RecordConsumption),
  steps: v.array(RecordStep),
})
export type RecordBatch = v.InferOutput<typeof RecordBatch>

export const RecordJob = v.object({
  _key: v.string(),
  operator: Person,
  quantity: v.number(),
  completed_qt: v.number(),
  status: v.picklist(['queued', 'started', 'paused', 'closed']),
  batches: v.array(RecordBatch),
})
export type RecordJob = v.InferOutput<typeof RecordJob>

export const RecordPhase = v.object({
  _key: v.string(),
  position: v.number(),
  name: v.string(),
  completed_qt: v.number(),
  scrapped_qt: v.number(),
  jobs: v.array(RecordJob),
})
export type RecordPhase = v.InferOutput<typeof RecordPhase>

export const RecordIssue = v.object({
  ...v.pick(IssueRow, [
    '_key',
    'code',
    'type_code',
    'type_name',
    'title',
    'description',
    'state',
    'critical',
    'phase_name',
    'batch_key',
    'opened_by_name',
    'opened_at',
    'closed_at',
    'closed_by_name',
  ]).entries,
  /** The signatures of its closing (a critical issue, where the settings require it), each saying whether it still verifies. */
  signatures: v.array(SignatureView),
})
export type RecordIssue = v.InferOutput<typeof RecordIssue>

export const RecordMovement = v.object({
  ...MovementRow.entries,
  /** The signatures of its revert (where the settings require it), under the movement reverted. */
  signatures: v.array(SignatureView),
})
export type RecordMovement = v.InferOutput<typeof RecordMovement>

/** One value a correction changed, as its event recorded it (`data.changes`). */
export const RecordChange = v.object({ field: v.string(), from: v.unknown(), to: v.unknown() })
export type RecordChange = v.InferOutput<typeof RecordChange>

export const RECORD_CORRECTION_KINDS = ['job', 'serial'] as const

/**
 * A correction of recorded data: a job's (reset progress, cancel active pieces, update progress or
 * times) or a serial's (its code or data, a link taken out), as the event that recorded it.
 */
export const RecordCorrection = v.object({
  /** The event's key (a correction's signature names it: `<job or serial key>:<event key>`). */
  _key: v.string(),
  kind: v.picklist(RECORD_CORRECTION_KINDS),
  /** JOB_PROGRESS_RESET, JOB_ACTIVE_PIECES_CANCELLED, JOB_PROGRESS_UPDATED, JOB_TIMES_UPDATED or SERIAL_UPDATED. */
  event_type: v.string(),
  at: v.number(),
  by: Person,
  /** kind job: the job, its phase and its operator; else null. */
  job_key: v.nullable(v.string()),
  phase_name: v.nullable(v.string()),
  operator_name: v.nullable(v.string()),
  /** kind serial: the serial; else null. */
  serial_key: v.nullable(v.string()),
  serial_code: v.nullable(v.string()),
  /** Each value changed, old and new. */
  changes: v.array(RecordChange),
  /** The reason given (serial corrections; job corrections take none). */
  reason: v.nullable(v.string()),
  /** The correction's signatures (where the settings require them), each saying whether it still verifies. */
  signatures: v.array(SignatureView),
})
export type RecordCorrection = v.InferOutput<typeof RecordCorrection>

export const RecordSerial = v.object({
  ...SerialRow.entries,
  contained_in: v.nullable(SerialLinkRow),
  /** Everything it is made of, every level (depth-first; depth 0 is the serial itself). */
  genealogy: v.array(GenealogyRow),
  genealogy_truncated: v.boolean(),
})
export type RecordSerial = v.InferOutput<typeof RecordSerial>

export const HistoryRecord = v.object({
  kind: v.picklist(['work_order', 'serial']),
  generated_at: v.number(),
  work_order: v.object({
    _key: v.string(),
    code: v.string(),
    status: v.string(),
    line: v.string(),
    start_from: v.nullable(v.string()),
    due_by: v.nullable(v.string()),
    created_at: v.number(),
    closed_at: v.nullable(v.number()),
    notes: v.string(),
  }),
  product: v.object({ _key: v.string(), code: v.string(), description: v.string() }),
  revision: RevisionSummary,
  quantities: v.object({ planned: v.number(), done: v.number(), scrapped: v.number() }),
  /** The serial the record is about (kind serial), else null. */
  serial: v.nullable(RecordSerial),
  /** Every phase with its jobs and batches (kind serial: only the batches that made or fitted the serial). */
  phases: v.array(RecordPhase),
  serials: v.object({
    produced: v.array(WorkOrderProducedSerial),
    produced_total: v.number(),
    consumed: v.array(WorkOrderConsumedSerial),
    consumed_total: v.number(),
  }),
  /**
   * Corrections, oldest first: of the record's jobs, and of the serials it lists (produced and
   * fitted; a serial's record: the serial and its genealogy).
   */
  corrections: v.array(RecordCorrection),
  issues: v.array(RecordIssue),
  movements: v.array(RecordMovement),
})
export type HistoryRecord = v.InferOutput<typeof HistoryRecord>
