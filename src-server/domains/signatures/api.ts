import * as v from 'valibot'
import { query, useCases } from '../../api/use-case'

/**
 * What a signature dialog needs besides the record it signs: the server's clock, shown in the
 * manifest (21 CFR 11.50: the date and time of signing are the server's; it stamps the signature).
 */
export const signaturesApi = useCases('signatures', {
  clock: query({
    summary: "The server's date and time (UTC ms) that a signature given now would carry",
    access: { scope: 'signed-in' },
    response: v.object({ server_time: v.number() }),
    rest: { method: 'get', path: '/signature-clock' },
    run: async (ctx) => ({ server_time: ctx.clock.now().getTime() }),
  }),
})
