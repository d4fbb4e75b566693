import * as v from 'valibot'
import { IssueTypeCreateInput, IssueTypePatchInput, IssueTypeRow } from '../../../src/domains/issue-types/schemas'
import { Key, QueryBool } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as issueTypes from './service'
import { ISSUE_TYPE_READERS } from './trpc'

const tag = 'issue types'
const KeyParams = v.object({ key: Key })

export const issueTypeRoutes = [
  route({
    method: 'get',
    path: '/issue-type',
    tag,
    summary: 'Issue types by code (only active ones with active_only=true)',
    access: { scope: ISSUE_TYPE_READERS },
    query: v.object({ active_only: v.optional(QueryBool) }),
    response: v.array(IssueTypeRow),
    handler: (ctx, { query }) => issueTypes.listIssueTypes(ctx, { active_only: query.active_only ?? false }),
  }),
  route({
    method: 'get',
    path: '/issue-type/{key}',
    tag,
    summary: 'One issue type',
    access: { scope: ISSUE_TYPE_READERS },
    params: KeyParams,
    response: IssueTypeRow,
    handler: (ctx, { params }) => issueTypes.getIssueType(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/issue-type',
    tag,
    summary: 'Create an issue type (code and name required, code unique); close_within in hours, 0 = never critical; detail._key is its key',
    access: { scope: 'admin' },
    body: IssueTypeCreateInput,
    response: IssueTypeRow,
    status: 201,
    handler: (ctx, { body }) => issueTypes.createIssueType(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/issue-type/{key}',
    tag,
    summary: 'Change an issue type',
    access: { scope: 'admin' },
    params: KeyParams,
    body: IssueTypePatchInput,
    response: IssueTypeRow,
    handler: (ctx, { params, body }) => issueTypes.patchIssueType(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'delete',
    path: '/issue-type/{key}',
    tag,
    summary: 'Delete an issue type; one in use cannot be deleted (409 ISSUE_TYPE_IN_USE, detail.issues lists the issues)',
    access: { scope: 'admin' },
    params: KeyParams,
    response: v.object({ _key: v.string() }),
    handler: (ctx, { params }) => issueTypes.deleteIssueType(ctx, ctx.actor!, params.key),
  }),
]
