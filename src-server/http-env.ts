import type { RequestCtx } from './context'

/** Hono's typed variables: every /api request carries its RequestCtx. */
export type AppEnv = { Variables: { ctx: RequestCtx } }
