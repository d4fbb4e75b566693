import * as v from 'valibot'
import { Tag, TagConnectionInput, TagListQuery } from '../../../src/domains/products/schemas'
import { mutation, query, useCases } from '../../api/use-case'
import { PRODUCT_READERS, PRODUCT_WRITERS } from '../products/access'
import * as tags from './service'

/** Tags are read with the items they describe and changed by those who change the items. */
export const tagsApi = useCases('tags', {
  list: query({
    summary:
      "With context and context_key: that item's tags. Otherwise the tag library by name, at most 100, filtered by search (contains, any case; a search shorter than the configured autocomplete_min_chars_tags answers an empty list)",
    access: { scope: PRODUCT_READERS },
    input: TagListQuery,
    response: v.array(Tag),
    rest: { method: 'get', path: '/tag' },
    run: (ctx, input) => tags.listTags(ctx, input),
  }),
  updateConnections: mutation({
    summary:
      "Add (type add) or remove (type remove) a tag on an item (context 'product', context_key = product key), by tag_key or by tag_name (adding an unknown name creates the tag); answers the item's tags",
    access: { scope: PRODUCT_WRITERS },
    input: TagConnectionInput,
    response: v.array(Tag),
    rest: { method: 'post', path: '/tag/update-connections' },
    run: (ctx, input) => tags.updateTagConnection(ctx, ctx.actor, input),
  }),
})
