import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { IssueTypeCreateInput, IssueTypeListInput, IssueTypePatchInput, IssueTypeRow } from '../../../src/domains/issue-types/schemas'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, useCases } from '../../api/use-case'
import * as issueTypes from './service'

/** Issue types are read by admins and by those who open issues: quality, operators, production. */
export const ISSUE_TYPE_READERS = ['admin', 'quality', 'operator', 'production'] as const satisfies readonly Scope[]
const read = { scope: ISSUE_TYPE_READERS }
const admin = { scope: 'admin' } as const
const ByKey = v.object({ key: Key })

export const issueTypesApi = useCases('issue types', {
  list: query({
    summary: 'Issue types by code (only active ones with active_only=true)',
    access: read,
    input: IssueTypeListInput,
    response: v.array(IssueTypeRow),
    rest: { method: 'get', path: '/issue-type' },
    run: (ctx, input) => issueTypes.listIssueTypes(ctx, input),
  }),
  get: query({
    summary: 'One issue type',
    access: read,
    input: ByKey,
    response: IssueTypeRow,
    rest: { method: 'get', path: '/issue-type/{key}' },
    run: (ctx, input) => issueTypes.getIssueType(ctx, input.key),
  }),
  create: mutation({
    summary: 'Create an issue type (code and name required, code unique); close_within in hours, 0 = never critical; detail._key is its key',
    access: admin,
    input: IssueTypeCreateInput,
    response: IssueTypeRow,
    rest: { method: 'post', path: '/issue-type', status: 201 },
    run: (ctx, input) => issueTypes.createIssueType(ctx, ctx.actor, input),
  }),
  patch: mutation({
    summary: 'Change an issue type',
    access: admin,
    input: v.object({ key: Key, patch: IssueTypePatchInput }),
    response: IssueTypeRow,
    rest: { method: 'patch', path: '/issue-type/{key}', body: 'patch' },
    run: (ctx, input) => issueTypes.patchIssueType(ctx, ctx.actor, input.key, input.patch),
  }),
  delete: mutation({
    summary: 'Delete an issue type; one in use cannot be deleted (409 ISSUE_TYPE_IN_USE, detail.issues lists the issues)',
    access: admin,
    input: ByKey,
    response: v.object({ _key: v.string() }),
    rest: { method: 'delete', path: '/issue-type/{key}' },
    run: (ctx, input) => issueTypes.deleteIssueType(ctx, ctx.actor, input.key),
  }),
})
