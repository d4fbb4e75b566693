import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { IssueTypeCreateInput, IssueTypeListInput, IssueTypePatchInput } from '../../../src/domains/issue-types/schemas'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router, scoped } from '../../trpc/init'
import * as issueTypes from './service'

/** Issue types are read by admins and by those who open issues: quality, operators, production. */
export const ISSUE_TYPE_READERS = ['admin', 'quality', 'operator', 'production'] as const satisfies readonly Scope[]

export const issueTypesRouter = router({
  list: procedure({ scope: ISSUE_TYPE_READERS })
    .input(IssueTypeListInput)
    .query(({ ctx, input }) => issueTypes.listIssueTypes(ctx, input)),
  get: procedure({ scope: ISSUE_TYPE_READERS })
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => issueTypes.getIssueType(ctx, input.key)),
  create: scoped('admin')
    .input(IssueTypeCreateInput)
    .mutation(({ ctx, input }) => issueTypes.createIssueType(ctx, ctx.actor, input)),
  patch: scoped('admin')
    .input(v.object({ key: Key, patch: IssueTypePatchInput }))
    .mutation(({ ctx, input }) => issueTypes.patchIssueType(ctx, ctx.actor, input.key, input.patch)),
  delete: scoped('admin')
    .input(v.object({ key: Key }))
    .mutation(({ ctx, input }) => issueTypes.deleteIssueType(ctx, ctx.actor, input.key)),
})
