import * as v from 'valibot'
import {
  AssignInput,
  JobAssignment,
  JobAssignmentQuery,
  JOB_REASON_MAX,
  JobDetail,
  JobKeyInput,
  JobListInput,
  JobPage,
  JobRow,
  JobUpdateInput,
  OperatorListInput,
  OperatorQueue,
  OperatorQueueSaveInput,
  OperatorRow,
  RebalanceInput,
  RebalanceResult,
} from '../../../src/domains/jobs/schemas'
import { mutation, query, useCases } from '../../api/use-case'
import { assignJobs, listOperators } from './assign'
import { updateJob } from './corrections'
import { getJob } from './detail'
import { listJobs } from './list'
import { getJobAssignment, saveOperatorQueue } from './operator-queues'
import { rebalancePhase } from './rebalance'

/** Reads for production and operators (an operator sees only their own queue); changes for production. */
const readers = { scope: ['production', 'operator'] } as const
const production = { scope: 'production' } as const

export const jobsApi = useCases('jobs', {
  list: query({
    summary:
      'List jobs in site queue order, keyset-paged (limit <= 200, next_cursor). filters: comma-separated SPEC 4 filters ' +
      '(active, assigned, critical, idle, late, not_critical, on_time, queued, started, ready, not_ready, unassigned), combined with AND; ' +
      'plus department_key, operator_key, work_order_key, phase_key, product_key, search, include_closed',
    access: readers,
    input: JobListInput,
    response: JobPage,
    rest: { method: 'get', path: '/job' },
    run: (ctx, input) => listJobs(ctx, input),
  }),
  get: query({
    summary: 'One job with phase parameters, step_sequence, work order, product and the material available',
    access: readers,
    input: JobKeyInput,
    response: JobDetail,
    rest: { method: 'get', path: '/job/{key}' },
    run: (ctx, input) => getJob(ctx, input.key),
  }),
  operators: query({
    summary: 'Users jobs can be assigned to (operator permission, enabled, not archived) by surname; department_key narrows',
    access: production,
    input: OperatorListInput,
    response: v.array(OperatorRow),
    run: (ctx, input) => listOperators(ctx, input),
  }),
  assign: mutation({
    summary:
      'Assign jobs to an operator (enabled, not archived, operator permission), or unassign them with operator_key null where the settings allow; ' +
      `a running job cannot change operator (409 JOB_RUNNING); reason: optional text (at most ${JOB_REASON_MAX} characters) the operators read on the job`,
    access: production,
    input: AssignInput,
    response: v.array(JobRow),
    rest: { method: 'post', path: '/job/assign' },
    run: (ctx, input) => assignJobs(ctx, ctx.actor, input),
  }),
  rebalance: mutation({
    summary:
      'Rebalance one phase of a work order (SPEC 5): jobs [{job_key?, quantity, operator_key}] - existing jobs by key, new ones without; ' +
      'the sum must equal the phase total (422 QUANTITIES_MISMATCH), new jobs need an operator (422 NEW_JOBS_NEED_OPERATOR), ' +
      'a job keeps its done and active pieces (422 JOB_BELOW_DONE); jobs left empty are removed (never started) or closed',
    access: production,
    input: RebalanceInput,
    response: RebalanceResult,
    rest: { method: 'post', path: '/job/rebalance' },
    run: (ctx, input) => rebalancePhase(ctx, ctx.actor, input),
  }),
  update: mutation({
    summary:
      'A production correction (SPEC 4): action reset_progress | cancel_active_pieces | update_progress (completed_qt) | ' +
      `update_times (time_spent_ms) | pause (reason: optional text, at most ${JOB_REASON_MAX} characters, that the operator reads with who paused the job), ` +
      'each with its guard (409 with the reason code) and an event; the four corrections take ' +
      'signature: {password} when the settings require it (signature_job_correction: 422 SIGNATURE_REQUIRED, 400 SIGNATURE_INVALID, 429 LOGIN_THROTTLED)',
    access: production,
    input: JobUpdateInput,
    response: JobDetail,
    rest: { method: 'post', path: '/job/update' },
    run: (ctx, input) => updateJob(ctx, ctx.actor, input, ctx.client.ip),
  }),
  assignment: query({
    summary:
      "Operator queues: detail.assigned_jobs_by_operator (each operator's open jobs in queue order) and detail.unassigned_jobs; " +
      'user_key narrows to one operator; an operator reads only their own queue. Each list is a page: limit/offset for the queues, ' +
      'unassigned_limit/unassigned_offset for the unassigned jobs (each limit defaults to 50, at most 500; ' +
      '0 leaves the list empty); more / unassigned_more say that jobs follow the page',
    access: readers,
    input: JobAssignmentQuery,
    response: JobAssignment,
    rest: { method: 'get', path: '/job-assignment' },
    run: (ctx, input) => getJobAssignment(ctx, ctx.actor, input),
  }),
  saveQueue: mutation({
    summary:
      "An operator's queue: independent (production; on needs the independent_queue_reordering setting, off resets to the site order) " +
      'and/or jobs (the open jobs in the wanted order; only while independent)',
    access: readers,
    input: OperatorQueueSaveInput,
    response: OperatorQueue,
    rest: { method: 'put', path: '/queue/operator/{key}', params: { key: 'user_key' } },
    run: (ctx, { user_key, ...queue }) => saveOperatorQueue(ctx, ctx.actor, user_key, queue),
  }),
})
