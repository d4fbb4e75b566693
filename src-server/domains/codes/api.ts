import { ResolveCodeInput, ResolvedCode } from '../../../src/domains/codes/schemas'
import { query, useCases } from '../../api/use-case'
import { resolveCode } from './resolve-code'

export const codesApi = useCases('codes', {
  resolve: query({
    summary:
      "Scan to open: what a scanned or typed code names (a traveller's job address, a work order code, a job code WO000123/1, a serial, a position, a product: tried in that order) and the screen that shows it to the caller (route). 404 CODE_NOT_FOUND when it names nothing; 403 CODE_NOT_ALLOWED (with kind) when the caller's permissions open none of its screens",
    access: { scope: 'signed-in' },
    input: ResolveCodeInput,
    response: ResolvedCode,
    rest: { method: 'get', path: '/code' },
    run: (ctx, input) => resolveCode(ctx.db, ctx.actor, input.code),
  }),
})
