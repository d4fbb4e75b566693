import * as v from 'valibot'
import { StorableText } from '../../valibot-helpers'

/**
 * Scan to open (issue 24): any code a label or a traveller carries, scanned or typed, names one
 * thing the user can open. The kinds, in the order the server tries them (resolve-code.ts).
 */
export const CODE_KINDS = ['job', 'work_order', 'serial', 'position', 'product'] as const
export type CodeKind = (typeof CODE_KINDS)[number]

/** Long enough for the traveller's QR, which carries the job's full address. */
export const SCANNED_CODE_MAX = 2000

export const ResolveCodeInput = v.object({
  code: v.pipe(v.string(), StorableText, v.trim(), v.minLength(1, 'the code is empty'), v.maxLength(SCANNED_CODE_MAX, `a code may have at most ${SCANNED_CODE_MAX} characters`)),
})
export type ResolveCodeInput = v.InferOutput<typeof ResolveCodeInput>

export const ResolvedCode = v.object({
  kind: v.picklist(CODE_KINDS),
  /** The key of what the code names (for a job code: the job). */
  _key: v.string(),
  /** Its code as the application writes it (a traveller's address gives the job's `WO000123/1`). */
  code: v.string(),
  /** The screen that shows it to this user (an app path, e.g. `/app/operator/job/{key}`). */
  route: v.string(),
})
export type ResolvedCode = v.InferOutput<typeof ResolvedCode>
