import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { MAX_MEDIA_BYTES } from '../../../src/domains/process/media'
import {
  ISSUE_ATTACHMENTS_MAX,
  IssueActionInput,
  IssueAttachment,
  IssueCreateInput,
  IssueDetail,
  IssueListInput,
  IssuePage,
  IssuePatchInput,
} from '../../../src/domains/issues/schemas'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, restOnly, useCases } from '../../api/use-case'
import * as issues from './service'

/**
 * Quality, production and operators read issues and open them (the service narrows where:
 * production not on nothing, operators only on a job) and edit their own; quality acts on them.
 */
export const ISSUE_USERS = ['quality', 'production', 'operator'] as const satisfies readonly Scope[]

const users = { scope: ISSUE_USERS }
const quality = { scope: 'quality' } as const
const ByKey = v.object({ key: Key })

export const issuesApi = useCases('issues', {
  list: query({
    summary:
      'Issues, newest first, one page with the total and the counts per state (state filter aside). Filters: `state` (comma list of open, closed, reopened), ' +
      '`critical`, `type_key`, `context_type` (job, work_order, product, generic), `job_key`, `work_order_key` (also its jobs\' issues), `product_key` ' +
      "(also its work orders' and jobs' issues), `from`/`to` (creation days YYYY/MM/DD or YYYY-MM-DD, plant calendar), `search` (words: code, title, description, type, " +
      'work order and product codes); `sort`, `dir`, `page`, `page_size`',
    access: users,
    input: IssueListInput,
    response: IssuePage,
    rest: { method: 'get', path: '/issue' },
    run: (ctx, input) => issues.listIssues(ctx, input),
  }),
  get: query({
    summary: 'One issue by key or code (ISS-000001), with its attachments and its history (oldest first)',
    access: users,
    input: ByKey,
    response: IssueDetail,
    rest: { method: 'get', path: '/issue/{key}' },
    run: (ctx, input) => issues.getIssue(ctx, input.key),
  }),
  create: mutation({
    summary:
      'Open an issue: type (active), title; context by job_key (with batch_key, step_key), work_order_key or product_key, or none (generic); ' +
      "critical defaults to the type's. Quality anywhere, production on a job, work order or product, operators on a job. detail.code is its code",
    access: users,
    input: IssueCreateInput,
    response: IssueDetail,
    rest: { method: 'post', path: '/issue', status: 201 },
    run: (ctx, input) => issues.createIssue(ctx, ctx.actor, input),
  }),
  update: mutation({
    summary: 'Change the title, description or type of an issue that is not closed (quality or the user who opened it)',
    access: users,
    input: v.object({ key: Key, ...IssuePatchInput.entries }),
    response: IssueDetail,
    rest: { method: 'patch', path: '/issue/{key}' },
    run: (ctx, { key, ...patch }) => issues.updateIssue(ctx, ctx.actor, key, patch),
  }),
  act: mutation({
    summary:
      'Act on an issue (quality): close, reopen, reopen_critical, make_critical, make_non_critical. Closing a critical issue takes signature: {password} ' +
      'when the settings require it (signature_critical_issue_close): 422 SIGNATURE_REQUIRED, 400 SIGNATURE_INVALID, 429 LOGIN_THROTTLED',
    access: quality,
    input: v.object({ key: Key, ...IssueActionInput.entries }),
    response: IssueDetail,
    rest: { method: 'post', path: '/issue/{key}/action' },
    run: (ctx, input) => issues.actOnIssue(ctx, ctx.actor, input.key, input.action, input.signature, ctx.client.ip),
  }),
  remove: mutation({
    summary: 'Delete an issue opened by mistake (quality). Its history stays in the events (ISSUE_DELETED); the critical marks of its job and work order follow',
    access: quality,
    input: ByKey,
    response: v.object({ _key: v.string(), code: v.string() }),
    rest: { method: 'delete', path: '/issue/{key}' },
    run: (ctx, input) => issues.deleteIssue(ctx, ctx.actor, input.key),
  }),
  addAttachment: restOnly({
    summary:
      'Attach a file to an issue that is not closed (quality or the user who opened it; multipart field `file`: PNG, JPEG, WebP or GIF image up to 10 MiB, ' +
      `PDF, MP4 or WebM video up to 25 MiB; at most ${ISSUE_ATTACHMENTS_MAX} per issue). The file is served at detail.url (/media/{key}) to signed-in users`,
    access: users,
    input: v.object({ key: Key, file: v.file('file must be a file') }),
    response: IssueAttachment,
    rest: { method: 'post', path: '/issue/{key}/attachment', status: 201, multipart: { maxBytes: MAX_MEDIA_BYTES + 64 * 1024 } },
    run: (ctx, input) => issues.addIssueAttachment(ctx, ctx.actor, input.key, input.file),
  }),
})
