import { TagConnectionInput, TagListQuery } from '../../../src/domains/products/schemas'
import { procedure, router } from '../../trpc/init'
import { PRODUCT_READERS, PRODUCT_WRITERS } from '../products/access'
import * as tags from './service'

/** Tags are read with the items they describe and changed by those who change the items. */
export const tagsRouter = router({
  list: procedure({ scope: PRODUCT_READERS })
    .input(TagListQuery)
    .query(({ ctx, input }) => tags.listTags(ctx, input)),
  updateConnections: procedure({ scope: PRODUCT_WRITERS })
    .input(TagConnectionInput)
    .mutation(({ ctx, input }) => tags.updateTagConnection(ctx, ctx.actor, input)),
})
