import * as v from 'valibot'
import { MAX_MEDIA_BYTES } from '../../../src/domains/process/media'
import {
  ISSUE_ATTACHMENTS_MAX,
  IssueActionInput,
  IssueAttachment,
  IssueCreateInput,
  IssueDetail,
  IssueListQuery,
  IssuePage,
  IssuePatchInput,
} from '../../../src/domains/issues/schemas'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as issues from './service'
import { ISSUE_USERS } from './trpc'

const tag = 'issues'
const KeyParams = v.object({ key: Key })

export const issueRoutes = [
  route({
    method: 'get',
    path: '/issue',
    tag,
    summary:
      'Issues, newest first, one page with the total and the counts per state (state filter aside). Filters: `state` (comma list of open, closed, reopened), ' +
      '`critical`, `type_key`, `context_type` (job, work_order, product, generic), `job_key`, `work_order_key` (also its jobs\' issues), `product_key` ' +
      "(also its work orders' and jobs' issues), `from`/`to` (creation days YYYY/MM/DD or YYYY-MM-DD, plant calendar), `search` (words: code, title, description, type, " +
      'work order and product codes); `sort`, `dir`, `page`, `page_size`',
    access: { scope: ISSUE_USERS },
    query: IssueListQuery,
    response: IssuePage,
    handler: (ctx, { query }) => issues.listIssues(ctx, query),
  }),
  route({
    method: 'get',
    path: '/issue/{key}',
    tag,
    summary: 'One issue by key or code (ISS-000001), with its attachments and its history (oldest first)',
    access: { scope: ISSUE_USERS },
    params: KeyParams,
    response: IssueDetail,
    handler: (ctx, { params }) => issues.getIssue(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/issue',
    tag,
    summary:
      'Open an issue: type (active), title; context by job_key (with batch_key, step_key), work_order_key or product_key, or none (generic); ' +
      "critical defaults to the type's. Quality anywhere, production on a job, work order or product, operators on a job. detail.code is its code",
    access: { scope: ISSUE_USERS },
    body: IssueCreateInput,
    response: IssueDetail,
    status: 201,
    handler: (ctx, { body }) => issues.createIssue(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/issue/{key}',
    tag,
    summary: 'Change the title, description or type of an issue that is not closed (quality or the user who opened it)',
    access: { scope: ISSUE_USERS },
    params: KeyParams,
    body: IssuePatchInput,
    response: IssueDetail,
    handler: (ctx, { params, body }) => issues.updateIssue(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'post',
    path: '/issue/{key}/action',
    tag,
    summary: 'Act on an issue (quality): close, reopen, reopen_critical, make_critical, make_non_critical',
    access: { scope: 'quality' },
    params: KeyParams,
    body: IssueActionInput,
    response: IssueDetail,
    handler: (ctx, { params, body }) => issues.actOnIssue(ctx, ctx.actor!, params.key, body.action),
  }),
  route({
    method: 'delete',
    path: '/issue/{key}',
    tag,
    summary: 'Delete an issue opened by mistake (quality). Its history stays in the events (ISSUE_DELETED); the critical marks of its job and work order follow',
    access: { scope: 'quality' },
    params: KeyParams,
    response: v.object({ _key: v.string(), code: v.string() }),
    handler: (ctx, { params }) => issues.deleteIssue(ctx, ctx.actor!, params.key),
  }),
  route({
    method: 'post',
    path: '/issue/{key}/attachment',
    tag,
    summary:
      'Attach a file to an issue that is not closed (quality or the user who opened it; multipart field `file`: PNG, JPEG, WebP or GIF image up to 10 MiB, ' +
      `PDF, MP4 or WebM video up to 25 MiB; at most ${ISSUE_ATTACHMENTS_MAX} per issue). The file is served at detail.url (/media/{key}) to signed-in users`,
    access: { scope: ISSUE_USERS },
    params: KeyParams,
    multipart: { maxBytes: MAX_MEDIA_BYTES + 64 * 1024 },
    body: v.object({ file: v.file('file must be a file') }),
    response: IssueAttachment,
    status: 201,
    handler: (ctx, { params, body }) => issues.addIssueAttachment(ctx, ctx.actor!, params.key, body.file),
  }),
]
