import type { Updateable } from 'kysely'
import { hasScope } from '../../../src/auth/scopes'
import {
  ISSUE_ATTACHMENTS_MAX,
  ISSUE_EVENTS,
  type IssueAction,
  type IssueAttachment,
  type IssueContextType,
  type IssueCreateInput,
  type IssueDetail,
  type IssueListInput,
  type IssuePage,
  type IssuePatchInput,
} from '../../../src/domains/issues/schemas'
import { isUuid } from '../../../src/uuid'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { drawNumber } from '../../db/numbering'
import type { IssuesTable } from '../../db/schema'
import { badRequest, conflict, forbidden, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { changesOf, editData } from '../events/changes'
import { createMedia } from '../media/service'
import { refreshCriticalMarks } from './critical-marks'
import { applyIssueFilters, countIssues, issuePlace, issuesJoined, orderIssues, selectAttachments, selectHistory, selectIssueRow } from './queries'
import type { SignatureInput } from '../../../src/domains/signatures/schemas'
import { actionSignature, requiredMeaning, signatureRequired, signRecord } from '../signatures/actions'
import { recordSignatures } from '../signatures/service'

/**
 * Quality issues (SPEC 3 Issue, 4 issue states and events, 7 `GET issue`): the only place that
 * changes them. Every change locks the issue row, writes its event and refreshes the critical
 * marks of the issue's job and work order in one transaction. Escalation is in escalation.ts.
 */

const SUBJECT = 'issue'
export const DEFAULT_PAGE_SIZE = 50

const issueNotFound = () => notFound('NOT_FOUND', 'issue not found')
const notAuthorised = (message: string) => forbidden('NOT_AUTHORISED', message)
const mismatch = (message: string) => badRequest('ISSUE_CONTEXT_MISMATCH', message)
const closedRefusal = () => conflict('ISSUE_CLOSED', 'the issue is closed: reopen it first')

/** Code shown to people: 'ISS-' and at least six digits from the issue_code numbering. */
export const formatIssueCode = (n: number) => `ISS-${String(n).padStart(6, '0')}`

function checkedTitle(title: string) {
  const trimmed = title.trim()
  if (!trimmed) throw badRequest('ISSUE_TITLE_REQUIRED', 'issue title required')
  return trimmed
}

/** An issue key (uuid) or its code ('ISS-000042') to the row id; undefined when none. */
async function findIssueId(db: Db, key: string): Promise<string | undefined> {
  if (!isUuid(key) && !/^ISS-\d{6,18}$/i.test(key)) return undefined
  const row = await db
    .selectFrom('issues')
    .select('id')
    .where(isUuid(key) ? 'id' : 'code', '=', isUuid(key) ? key : key.toUpperCase())
    .executeTakeFirst()
  return row?.id
}

function lockIssue(db: Db, id: string) {
  return db.selectFrom('issues').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
}

type LockedIssue = NonNullable<Awaited<ReturnType<typeof lockIssue>>>

/** Runs `change` in one transaction on the issue (key or code) locked FOR UPDATE; 404 when there is none. */
async function changeIssue<R>(svc: Pick<Services, 'db' | 'clock'>, key: string, change: (trx: Db, issue: LockedIssue, now: Date) => Promise<R>) {
  const id = await findIssueId(svc.db, key)
  if (!id) throw issueNotFound()
  const now = svc.clock.now()
  const result = await svc.db.transaction().execute(async (trx) => {
    const issue = await lockIssue(trx, id)
    if (!issue) throw issueNotFound()
    return change(trx, issue, now)
  })
  return { id, result }
}

// ---------------------------------------------------------------------------------------------
// Who may do what (read and the quality-only actions are declared on the routes)

const isQuality = (actor: Actor) => hasScope(actor.scope, 'quality')

const opensAsOperatorOnly = (actor: Actor) => !isQuality(actor) && !hasScope(actor.scope, 'production')

/** Quality opens issues anywhere; production on a job, work order or product; operators on a job. */
function assertMayOpen(actor: Actor, context: IssueContextType) {
  if (isQuality(actor)) return
  if (context !== 'generic' && hasScope(actor.scope, 'production')) return
  if (context === 'job' && hasScope(actor.scope, 'operator')) return
  throw notAuthorised(hasScope(actor.scope, 'production') ? 'production opens issues on a job, a work order or a product' : 'operators open issues on a job')
}

/** Title, description, type and attachments: quality, or whoever opened the issue. */
function assertMayEdit(actor: Actor, issue: { opened_by: string | null }) {
  if (isQuality(actor) || issue.opened_by === actor.userId) return
  throw notAuthorised('only quality or the user who opened the issue may change it')
}

// ---------------------------------------------------------------------------------------------
// Reading

/** A day's (YYYY/MM/DD, or YYYY-MM-DD from service callers) first instant on the plant's calendar (the server's time zone, as jobs' `late`). */
function dayStart(day: string, plusDays = 0): Date {
  const [y, m, d] = day.split(/[/-]/).map(Number) as [number, number, number]
  // setFullYear, not new Date(y, ...): the constructor reads years 0-99 as 1900-1999.
  const start = new Date(0)
  start.setFullYear(y, m - 1, d + plusDays)
  start.setHours(0, 0, 0, 0)
  return start
}

/** `issues.list` / `GET issue`: one page (newest first by default), the total and the counts per state. */
export async function listIssues(svc: Pick<Services, 'db'>, input: IssueListInput = {}): Promise<IssuePage> {
  const { state, sort = 'created_at', dir = 'desc', page = 1, page_size = DEFAULT_PAGE_SIZE, from, to, ...filters } = input
  const filtered = applyIssueFilters(issuesJoined(svc.db), {
    ...filters,
    created_from: from ? dayStart(from) : undefined,
    created_before: to ? dayStart(to, 1) : undefined,
  })
  const inState = state?.length ? filtered.where('i.state', 'in', state) : filtered
  const [rows, counted] = await Promise.all([
    orderIssues(selectIssueRow(inState), sort, dir)
      .limit(page_size)
      .offset((page - 1) * page_size)
      .execute(),
    countIssues(filtered, state),
  ])
  return { rows, ...counted }
}

async function readDetail(db: Db, id: string): Promise<IssueDetail> {
  const [row, attachments, history, signatures] = await Promise.all([
    selectIssueRow(issuesJoined(db)).where('i.id', '=', id).executeTakeFirst(),
    selectAttachments(db, id).execute(),
    selectHistory(db, id).execute(),
    recordSignatures(db, 'issue', id),
  ])
  if (!row) throw issueNotFound()
  return { ...row, ...(await issuePlace(db, row)), attachments, history, signatures }
}

/** `issues.get` / `GET issue/{key}` (key or code): the row, its attachments and its history, oldest first. */
export async function getIssue(svc: Pick<Services, 'db'>, key: string): Promise<IssueDetail> {
  const id = await findIssueId(svc.db, key)
  if (!id) throw issueNotFound()
  return readDetail(svc.db, id)
}

// ---------------------------------------------------------------------------------------------
// Opening

async function activeType(db: Db, key: string) {
  const type = await db.selectFrom('issue_types').select(['id', 'code', 'critical', 'active']).where('id', '=', key).executeTakeFirst()
  if (!type) throw badRequest('UNKNOWN_ISSUE_TYPE', 'unknown issue type')
  if (!type.active) throw conflict('ISSUE_TYPE_INACTIVE', `the issue type ${type.code} is not active`)
  return type
}

type Context = Pick<IssuesTable, 'context_type' | 'job_id' | 'work_order_id' | 'product_id' | 'batch_id' | 'step_key'>

const contextTypeOf = (input: IssueCreateInput): IssueContextType =>
  input.job_key ? 'job' : input.work_order_key ? 'work_order' : input.product_key ? 'product' : 'generic'

/**
 * The issue's context from the keys given: a job brings its work order and product (keys given
 * with it must agree) and may be narrowed to one of its batches and one of its steps; a work
 * order brings its product.
 */
async function resolveContext(db: Db, actor: Actor, input: IssueCreateInput): Promise<Context> {
  const none = { job_id: null, work_order_id: null, product_id: null, batch_id: null, step_key: null }
  if (!input.job_key && (input.batch_key || input.step_key)) throw mismatch('a batch or a step narrows a job: give its job_key')
  if (input.job_key) {
    const job = await db
      .selectFrom('jobs as j')
      .innerJoin('work_orders as wo', 'wo.id', 'j.work_order_id')
      .select(['j.id', 'j.work_order_id', 'wo.product_id', 'j.step_sequence', 'j.operator_id'])
      .where('j.id', '=', input.job_key)
      .executeTakeFirst()
    if (!job) throw badRequest('UNKNOWN_JOB', 'job not found')
    // An operator reports on the jobs they may work on: their own and unassigned ones.
    if (opensAsOperatorOnly(actor) && job.operator_id !== null && job.operator_id !== actor.userId) {
      throw forbidden('JOB_NOT_YOURS', 'operators open issues on their own jobs')
    }
    if (input.work_order_key && input.work_order_key !== job.work_order_id) throw mismatch('the job belongs to another work order')
    if (input.product_key && input.product_key !== job.product_id) throw mismatch('the job makes another product')
    if (input.batch_key) {
      const batch = await db.selectFrom('batches').select('job_id').where('id', '=', input.batch_key).executeTakeFirst()
      if (batch?.job_id !== job.id) throw mismatch('the batch is not one of the job')
    }
    if (input.step_key && !job.step_sequence.some((s) => s._key === input.step_key)) throw mismatch('the step is not one of the job')
    return {
      context_type: 'job',
      job_id: job.id,
      work_order_id: job.work_order_id,
      product_id: job.product_id,
      batch_id: input.batch_key ?? null,
      step_key: input.step_key ?? null,
    }
  }
  if (input.work_order_key) {
    const wo = await db.selectFrom('work_orders').select(['id', 'product_id']).where('id', '=', input.work_order_key).executeTakeFirst()
    if (!wo) throw badRequest('UNKNOWN_WORK_ORDER', 'work order not found')
    if (input.product_key && input.product_key !== wo.product_id) throw mismatch('the work order makes another product')
    return { ...none, context_type: 'work_order', work_order_id: wo.id, product_id: wo.product_id }
  }
  if (input.product_key) {
    const product = await db.selectFrom('products').select('id').where('id', '=', input.product_key).executeTakeFirst()
    if (!product) throw badRequest('UNKNOWN_PRODUCT', 'product not found')
    return { ...none, context_type: 'product', product_id: product.id }
  }
  return { ...none, context_type: 'generic' }
}

/** `issues.create` / `POST issue`: a new open issue with the next code; critical defaults to the type's. */
export async function createIssue(svc: Pick<Services, 'db' | 'clock'>, actor: Actor, input: IssueCreateInput): Promise<IssueDetail> {
  assertMayOpen(actor, contextTypeOf(input))
  const title = checkedTitle(input.title)
  const now = svc.clock.now()
  const id = await svc.db.transaction().execute(async (trx) => {
    const type = await activeType(trx, input.type_key)
    const context = await resolveContext(trx, actor, input)
    const code = formatIssueCode(await drawNumber(trx, 'issue_code'))
    const critical = input.critical ?? type.critical
    const { id } = await trx
      .insertInto('issues')
      .values({
        code,
        type_id: type.id,
        title,
        description: input.description ?? '',
        state: 'open',
        critical,
        ...context,
        opened_by: actor.userId,
        opened_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await appendEvent(
      trx,
      actor,
      {
        event_type: ISSUE_EVENTS.opened,
        subject_type: SUBJECT,
        subject_key: id,
        data: {
          code,
          title,
          type: type.code,
          critical,
          context_type: context.context_type,
          job_key: context.job_id,
          work_order_key: context.work_order_id,
          product_key: context.product_id,
          batch_key: context.batch_id,
          step_key: context.step_key,
        },
      },
      now,
    )
    await refreshCriticalMarks(trx, context)
    return id
  })
  return readDetail(svc.db, id)
}

// ---------------------------------------------------------------------------------------------
// Changing

/**
 * `issues.update` / `PATCH issue/{key}`: title, description and type while the issue is not
 * closed (quality or the opener). Criticality stays as it is; an event lists what changed.
 */
export async function updateIssue(svc: Pick<Services, 'db' | 'clock'>, actor: Actor, key: string, patch: IssuePatchInput): Promise<IssueDetail> {
  const { id } = await changeIssue(svc, key, async (trx, issue, now) => {
    const id = issue.id
    assertMayEdit(actor, issue)
    if (issue.state === 'closed') throw closedRefusal()
    const next = {
      type_id: patch.type_key === undefined || patch.type_key === issue.type_id ? issue.type_id : (await activeType(trx, patch.type_key)).id,
      title: patch.title === undefined ? issue.title : checkedTitle(patch.title),
      description: patch.description ?? issue.description,
    }
    const changes = changesOf(
      { type: issue.type_id, title: issue.title, description: issue.description },
      { type: next.type_id, title: next.title, description: next.description },
    )
    if (Object.keys(changes).length === 0) return
    await trx.updateTable('issues').set({ ...next, updated_at: now }).where('id', '=', id).execute()
    await appendEvent(trx, actor, { event_type: ISSUE_EVENTS.updated, subject_type: SUBJECT, subject_key: id, data: editData(changes, { code: issue.code }) }, now)
  })
  return readDetail(svc.db, id)
}

type Transition = { set: Pick<Updateable<IssuesTable>, 'state' | 'critical' | 'opened_at' | 'closed_at' | 'closed_by'>; event: string }

/** What an action does to an issue in this state, or the refusal. */
function transition(action: IssueAction, issue: { state: string; critical: boolean }, actor: Actor, now: Date): Transition {
  const closed = issue.state === 'closed'
  const reopen = { state: 'reopened', opened_at: now, closed_at: null, closed_by: null } as const
  switch (action) {
    case 'close':
      if (closed) throw conflict('ISSUE_CLOSED', 'the issue is already closed')
      return { set: { state: 'closed', closed_at: now, closed_by: actor.userId }, event: ISSUE_EVENTS.closed }
    case 'reopen':
      if (!closed) throw conflict('ISSUE_NOT_CLOSED', 'only a closed issue can be reopened')
      return { set: reopen, event: ISSUE_EVENTS.reopened }
    case 'reopen_critical':
      if (!closed) throw conflict('ISSUE_NOT_CLOSED', 'only a closed issue can be reopened')
      return { set: { ...reopen, critical: true }, event: ISSUE_EVENTS.reopened_critical }
    case 'make_critical':
      if (closed) throw closedRefusal()
      if (issue.critical) throw conflict('ISSUE_ALREADY_CRITICAL', 'the issue is already critical')
      return { set: { critical: true }, event: ISSUE_EVENTS.made_critical }
    case 'make_non_critical':
      if (closed) throw closedRefusal()
      if (!issue.critical) throw conflict('ISSUE_NOT_CRITICAL', 'the issue is not critical')
      return { set: { critical: false }, event: ISSUE_EVENTS.made_non_critical }
  }
}

/**
 * `issues.act` / `POST issue/{key}/action` (quality): close, reopen (as it was, or as critical),
 * make critical, make non-critical. Reopening restarts the close-within count (opened_at = now).
 */
export async function actOnIssue(
  svc: Pick<Services, 'db' | 'clock'>,
  actor: Actor,
  key: string,
  action: IssueAction,
  signatureInput?: SignatureInput,
  ip: string | null = null,
): Promise<IssueDetail> {
  // Closing a critical issue is signed when the settings say so (checked before the transaction).
  const closingCritical = async () => {
    const id = action === 'close' ? await findIssueId(svc.db, key) : undefined
    return id !== undefined && (await svc.db.selectFrom('issues').select('critical').where('id', '=', id).executeTakeFirst())?.critical === true
  }
  const signature = await actionSignature(svc, actor, 'critical_issue_close', signatureInput, ip, await closingCritical())
  const { id } = await changeIssue(svc, key, async (trx, issue, now) => {
    const id = issue.id
    const { set, event } = transition(action, issue, actor, now)
    // Made critical since the check above: refused like any unsigned close of a critical issue.
    const meaning = action === 'close' && issue.critical && !signature ? await requiredMeaning(trx, 'critical_issue_close') : null
    if (meaning) throw signatureRequired(meaning)
    await trx.updateTable('issues').set({ ...set, updated_at: now }).where('id', '=', id).execute()
    const data = { code: issue.code, critical: set.critical ?? issue.critical }
    await appendEvent(trx, actor, { event_type: event, subject_type: SUBJECT, subject_key: id, data }, now)
    if (signature && action === 'close') await signRecord(trx, actor, signature, { type: 'issue', key: id, event: { subject_type: SUBJECT, subject_key: id } }, now)
    await refreshCriticalMarks(trx, issue)
  })
  return readDetail(svc.db, id)
}

/**
 * `issues.remove` / `DELETE issue/{key}` (quality): an issue opened by mistake goes, with its
 * attachment links; its history stays in the events (ISSUE_DELETED keeps code, title and context)
 * and the marks of its job and work order follow.
 */
export async function deleteIssue(svc: Pick<Services, 'db' | 'clock'>, actor: Actor, key: string): Promise<{ _key: string; code: string }> {
  const { result } = await changeIssue(svc, key, async (trx, issue, now) => {
    const id = issue.id
    await trx.deleteFrom('issues').where('id', '=', id).execute()
    const data = {
      code: issue.code,
      title: issue.title,
      state: issue.state,
      critical: issue.critical,
      context_type: issue.context_type,
      job_key: issue.job_id,
      work_order_key: issue.work_order_id,
      product_key: issue.product_id,
    }
    await appendEvent(trx, actor, { event_type: ISSUE_EVENTS.deleted, subject_type: SUBJECT, subject_key: id, data }, now)
    await refreshCriticalMarks(trx, issue)
    return { _key: id, code: issue.code }
  })
  return result
}

/**
 * `POST issue/{key}/attachment`: one image, PDF or video (checked like every media upload) on an
 * issue that is not closed, by quality or the opener; at most ISSUE_ATTACHMENTS_MAX. A refusal
 * writes nothing: no media row, no file, no event.
 */
export async function addIssueAttachment(svc: Services, actor: Actor, key: string, file: File): Promise<IssueAttachment> {
  const id = await findIssueId(svc.db, key)
  const found = id ? await svc.db.selectFrom('issues').select('opened_by').where('id', '=', id).executeTakeFirst() : undefined
  if (!id || !found) throw issueNotFound()
  // Before the file is read and stored; state and room are checked again under the lock.
  assertMayEdit(actor, found)
  const media = await createMedia(svc, actor, file, async (trx, m) => {
    const issue = await lockIssue(trx, id)
    if (!issue) throw issueNotFound()
    if (issue.state === 'closed') throw closedRefusal()
    const { n } = await trx
      .selectFrom('issue_attachments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('issue_id', '=', id)
      .executeTakeFirstOrThrow()
    if (Number(n) >= ISSUE_ATTACHMENTS_MAX) throw conflict('ISSUE_ATTACHMENTS_FULL', `an issue holds at most ${ISSUE_ATTACHMENTS_MAX} attachments`)
    const now = svc.clock.now()
    await trx.insertInto('issue_attachments').values({ issue_id: id, media_id: m.id, created_at: now }).execute()
    await trx.updateTable('issues').set({ updated_at: now }).where('id', '=', id).execute()
    await appendEvent(
      trx,
      actor,
      {
        event_type: ISSUE_EVENTS.attachment_added,
        subject_type: SUBJECT,
        subject_key: id,
        data: { code: issue.code, media_key: m.id, filename: m.filename, content_type: m.content_type, size: m.size },
      },
      now,
    )
  })
  return selectAttachments(svc.db, id).where('m.id', '=', media._key).executeTakeFirstOrThrow()
}
