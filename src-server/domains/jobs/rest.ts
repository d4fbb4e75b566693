import * as v from 'valibot'
import {
  AssignInput,
  JobAssignment,
  JobAssignmentQuery,
  JobDetail,
  JobKeyParams,
  JobListQuery,
  JobPage,
  JobRow,
  JobUpdateInput,
  OperatorQueue,
  OperatorQueueInput,
  RebalanceInput,
  RebalanceResult,
  UserKeyParams,
} from '../../../src/domains/jobs/schemas'
import { route } from '../../rest/route'
import * as jobs from './service'

const tag = 'jobs'
const READERS = ['production', 'operator'] as const

export const jobRoutes = [
  route({
    method: 'get',
    path: '/job',
    tag,
    summary:
      'List jobs in site queue order, keyset-paged (limit <= 200, next_cursor). filters: comma-separated SPEC 4 filters ' +
      '(active, assigned, critical, idle, late, not_critical, on_time, queued, started, ready, not_ready, unassigned), combined with AND; ' +
      'plus department_key, operator_key, work_order_key, phase_key, product_key, search, include_closed',
    access: { scope: READERS },
    query: JobListQuery,
    response: JobPage,
    handler: (ctx, { query }) => jobs.listJobs(ctx, query),
  }),
  route({
    method: 'get',
    path: '/job/{key}',
    tag,
    summary: 'One job with phase parameters, step_sequence, work order, product and the material available',
    access: { scope: READERS },
    params: JobKeyParams,
    response: JobDetail,
    handler: (ctx, { params }) => jobs.getJob(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/job/assign',
    tag,
    summary:
      'Assign jobs to an operator (enabled, not archived, operator permission), or unassign them with operator_key null where the settings allow; ' +
      'a running job cannot change operator (409 JOB_RUNNING)',
    access: { scope: 'production' },
    body: AssignInput,
    response: v.array(JobRow),
    handler: (ctx, { body }) => jobs.assignJobs(ctx, ctx.actor!, body),
  }),
  route({
    method: 'post',
    path: '/job/rebalance',
    tag,
    summary:
      'Rebalance one phase of a work order (SPEC 5): jobs [{job_key?, quantity, operator_key}] - existing jobs by key, new ones without; ' +
      'the sum must equal the phase total (422 QUANTITIES_MISMATCH), new jobs need an operator (422 NEW_JOBS_NEED_OPERATOR), ' +
      'a job keeps its done and active pieces (422 JOB_BELOW_DONE); jobs left empty are removed (never started) or closed',
    access: { scope: 'production' },
    body: RebalanceInput,
    response: RebalanceResult,
    handler: (ctx, { body }) => jobs.rebalancePhase(ctx, ctx.actor!, body),
  }),
  route({
    method: 'post',
    path: '/job/update',
    tag,
    summary:
      'A production correction (SPEC 4): action reset_progress | cancel_active_pieces | update_progress (completed_qt) | ' +
      'update_times (time_spent_ms) | pause, each with its guard (409 with the reason code) and an event',
    access: { scope: 'production' },
    body: JobUpdateInput,
    response: JobDetail,
    handler: (ctx, { body }) => jobs.updateJob(ctx, ctx.actor!, body),
  }),
  route({
    method: 'get',
    path: '/job-assignment',
    tag,
    summary:
      "Operator queues: detail.assigned_jobs_by_operator (each operator's open jobs in queue order) and detail.unassigned_jobs; " +
      'user_key narrows to one operator; an operator reads only their own queue',
    access: { scope: READERS },
    query: JobAssignmentQuery,
    response: JobAssignment,
    handler: (ctx, { query }) => jobs.getJobAssignment(ctx, ctx.actor!, query),
  }),
  route({
    method: 'put',
    path: '/queue/operator/{key}',
    tag,
    summary:
      "An operator's queue: independent (production; on needs the independent_queue_reordering setting, off resets to the site order) " +
      'and/or jobs (the open jobs in the wanted order; only while independent)',
    access: { scope: READERS },
    params: UserKeyParams,
    body: OperatorQueueInput,
    response: OperatorQueue,
    handler: (ctx, { params, body }) => jobs.saveOperatorQueue(ctx, ctx.actor!, params.key, body),
  }),
]
