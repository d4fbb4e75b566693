import {
  BackOnlineInput,
  BatchKeyInput,
  CompleteBatchInput,
  CompleteStepInput,
  JobActionInput,
  JobKeyInput,
  PauseJobInput,
  SaveSerialTempLinksInput,
  SaveStepInput,
  StartJobsInput,
} from '../../../src/domains/execution/schemas'
import type { Access } from '../../auth/authorize'
import type { Auth } from '../../context'
import { procedure, router } from '../../trpc/init'
import * as execution from './service'

/** Who reads execution data: operators (their own and unassigned jobs; the service checks) and production. */
export const EXECUTION_READ: Access = { scope: ['operator', 'production'] }
/** Operator writes (each with its idempotency_key). */
export const EXECUTION_WRITE: Access = { scope: 'operator' }
/** The job heartbeat: answers while the session is locked and never counts as user activity. */
export const HEARTBEAT_ACCESS: Access = { scope: 'operator', whileLocked: true, notActivity: true }

/** The signed-in session is locked (idle timeout or lock screen): set by authorize() before the call. */
export const sessionLocked = (auth: Auth | null) => auth?.via === 'session' && auth.session.locked

const read = procedure(EXECUTION_READ)
const write = procedure(EXECUTION_WRITE)

export const executionRouter = router({
  workSession: read.input(JobKeyInput).query(({ ctx, input }) => execution.workSession(ctx, ctx.actor, input.job_key)),
  batch: read.input(BatchKeyInput).query(({ ctx, input }) => execution.getBatch(ctx, ctx.actor, input.batch_key)),
  batchSerials: read.input(BatchKeyInput).query(({ ctx, input }) => execution.getBatchSerials(ctx, ctx.actor, input.batch_key)),
  componentBatch: read.input(BatchKeyInput).query(({ ctx, input }) => execution.componentBatch(ctx, ctx.actor, input.batch_key)),
  start: write.input(StartJobsInput).mutation(({ ctx, input }) => execution.startJobs(ctx, ctx.actor, input)),
  resume: write.input(JobActionInput).mutation(({ ctx, input }) => execution.resumeJob(ctx, ctx.actor, input)),
  pause: write.input(PauseJobInput).mutation(({ ctx, input }) => execution.pauseJob(ctx, ctx.actor, input)),
  newBatch: write.input(JobActionInput).mutation(({ ctx, input }) => execution.newBatch(ctx, ctx.actor, input)),
  saveStep: write.input(SaveStepInput).mutation(({ ctx, input }) => execution.saveStep(ctx, ctx.actor, input)),
  completeStep: write.input(CompleteStepInput).mutation(({ ctx, input }) => execution.completeStep(ctx, ctx.actor, input)),
  completeBatch: write.input(CompleteBatchInput).mutation(({ ctx, input }) => execution.completeBatch(ctx, ctx.actor, input)),
  saveSerialTempLinks: write.input(SaveSerialTempLinksInput).mutation(({ ctx, input }) => execution.saveSerialTempLinks(ctx, ctx.actor, input)),
  backOnline: write.input(BackOnlineInput).mutation(({ ctx, input }) => execution.backOnline(ctx, ctx.actor, input)),
})
