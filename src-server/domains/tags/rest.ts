import * as v from 'valibot'
import { Tag, TagConnectionInput, TagListQuery } from '../../../src/domains/products/schemas'
import { route } from '../../rest/route'
import { PRODUCT_READERS, PRODUCT_WRITERS } from '../products/access'
import * as tags from './service'

const tag = 'tags'

export const tagRoutes = [
  route({
    method: 'get',
    path: '/tag',
    tag,
    summary:
      "With context and context_key: that item's tags. Otherwise the tag library by name, at most 100, filtered by search (contains, any case; a search shorter than the configured autocomplete_min_chars_tags answers an empty list)",
    access: { scope: PRODUCT_READERS },
    query: TagListQuery,
    response: v.array(Tag),
    handler: (ctx, { query }) => tags.listTags(ctx, query),
  }),
  route({
    method: 'post',
    path: '/tag/update-connections',
    tag,
    summary:
      "Add (type add) or remove (type remove) a tag on an item (context 'product', context_key = product key), by tag_key or by tag_name (adding an unknown name creates the tag); answers the item's tags",
    access: { scope: PRODUCT_WRITERS },
    body: TagConnectionInput,
    response: v.array(Tag),
    handler: (ctx, { body }) => tags.updateTagConnection(ctx, ctx.actor!, body),
  }),
]
