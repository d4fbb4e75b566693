import * as v from 'valibot'
import {
  AssignInput,
  JobAssignmentQuery,
  JobListInput,
  JobUpdateInput,
  OperatorListInput,
  OperatorQueueInput,
  RebalanceInput,
} from '../../../src/domains/jobs/schemas'
import { UuidKey } from '../../../src/valibot-helpers'
import { router, scoped } from '../../trpc/init'
import * as jobs from './service'

const Key = UuidKey('wrong job key')

/** Reads for production and operators (an operator sees only their own queue); changes for production. */
export const jobsRouter = router({
  list: scoped('production', 'operator')
    .input(JobListInput)
    .query(({ ctx, input }) => jobs.listJobs(ctx, input)),
  get: scoped('production', 'operator')
    .input(v.object({ key: Key }))
    .query(({ ctx, input }) => jobs.getJob(ctx, input.key)),
  operators: scoped('production')
    .input(OperatorListInput)
    .query(({ ctx, input }) => jobs.listOperators(ctx, input)),
  assign: scoped('production')
    .input(AssignInput)
    .mutation(({ ctx, input }) => jobs.assignJobs(ctx, ctx.actor, input)),
  rebalance: scoped('production')
    .input(RebalanceInput)
    .mutation(({ ctx, input }) => jobs.rebalancePhase(ctx, ctx.actor, input)),
  update: scoped('production')
    .input(JobUpdateInput)
    .mutation(({ ctx, input }) => jobs.updateJob(ctx, ctx.actor, input)),
  assignment: scoped('production', 'operator')
    .input(JobAssignmentQuery)
    .query(({ ctx, input }) => jobs.getJobAssignment(ctx, ctx.actor, input)),
  saveQueue: scoped('production', 'operator')
    .input(v.object({ user_key: UuidKey('wrong user key'), ...OperatorQueueInput.entries }))
    .mutation(({ ctx, input }) => {
      const { user_key, ...body } = input
      return jobs.saveOperatorQueue(ctx, ctx.actor, user_key, body)
    }),
})
