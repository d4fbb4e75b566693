import * as v from 'valibot'
import { router, signedIn } from '../../trpc/init'
import * as media from './service'

export const mediaRouter = router({
  /** Names and types of the media that steps refer to (unknown keys are left out). */
  byKeys: signedIn
    .input(v.object({ keys: v.pipe(v.array(v.pipe(v.string(), v.maxLength(100))), v.maxLength(1000)) }))
    .query(({ ctx, input }) => media.listMedia(ctx, input.keys)),
})
