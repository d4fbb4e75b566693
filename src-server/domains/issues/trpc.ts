import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { IssueActionInput, IssueCreateInput, IssueListInput, IssuePatchInput } from '../../../src/domains/issues/schemas'
import { Key } from '../../../src/valibot-helpers'
import { procedure, router, scoped } from '../../trpc/init'
import * as issues from './service'

/**
 * Quality, production and operators read issues and open them (the service narrows where:
 * production not on nothing, operators only on a job) and edit their own; quality acts on them.
 */
export const ISSUE_USERS = ['quality', 'production', 'operator'] as const satisfies readonly Scope[]

export const issuesRouter = router({
  list: procedure({ scope: ISSUE_USERS })
    .input(IssueListInput)
    .query(({ ctx, input }) => issues.listIssues(ctx, input)),
  get: procedure({ scope: ISSUE_USERS })
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => issues.getIssue(ctx, input.key)),
  create: procedure({ scope: ISSUE_USERS })
    .input(IssueCreateInput)
    .mutation(({ ctx, input }) => issues.createIssue(ctx, ctx.actor, input)),
  update: procedure({ scope: ISSUE_USERS })
    .input(v.object({ key: Key, ...IssuePatchInput.entries }))
    .mutation(({ ctx, input: { key, ...patch } }) => issues.updateIssue(ctx, ctx.actor, key, patch)),
  act: scoped('quality')
    .input(v.object({ key: Key, ...IssueActionInput.entries }))
    .mutation(({ ctx, input }) => issues.actOnIssue(ctx, ctx.actor, input.key, input.action)),
  remove: scoped('quality')
    .input(v.object({ key: Key }))
    .mutation(({ ctx, input }) => issues.deleteIssue(ctx, ctx.actor, input.key)),
})
