import { sql } from 'kysely'
import { TAG_RESULTS_MAX, type Tag, type TagListQuery } from '../../../src/domains/products/schemas'
import type { Actor, Services } from '../../context'
import type { Db } from '../../db/connect'
import { containsPattern } from '../../db/like'
import { isUniqueViolation, notFound } from '../../errors'
import { appendEvent } from '../events/service'
import { lockProduct } from '../products/service'
import { readSettings } from '../settings/queries'
import { itemTags } from './queries'
import { invalidField } from '../../input-issues'

/**
 * Tags (SPEC 3 Tag, 5 autocomplete, 7 `GET tag`, `POST tag/update-connections`): a library of
 * names, unique whatever the case, linked to items by context ('product' with the product key).
 * Events: TAG_CREATED (a new name), TAG_ADDED and TAG_REMOVED (on the item, subject = the item).
 */

export type TagConnection = {
  type: 'add' | 'remove'
  context: 'product'
  context_key: string
  tag_key?: string
  tag_name?: string
}

/**
 * `GET tag`: an item's tags (context + context_key), or the library by name: at most
 * TAG_RESULTS_MAX, filtered by `search` (contains, any case). A search shorter than the
 * configured autocomplete_min_chars_tags answers nothing (autocomplete, SPEC 5).
 */
export async function listTags(svc: Services, query: TagListQuery): Promise<Tag[]> {
  if (query.context || query.context_key) {
    if (!query.context || !query.context_key) throw invalidField({ path: query.context ? 'context_key' : 'context', kind: 'required', message: 'context and context_key go together' })
    const key = query.context_key.toLowerCase()
    const item = await svc.db.selectFrom('products').select('id').where('id', '=', key).executeTakeFirst()
    if (!item) throw notFound('NOT_FOUND', 'product not found')
    return itemTags(svc.db, query.context, key)
  }
  let q = svc.db.selectFrom('tags as t').select(['t.id as _key', 't.name'])
  if (query.search !== undefined) {
    const search = query.search.trim()
    const { autocomplete_min_chars_tags: min } = await readSettings(svc.db)
    if ([...search].length < min) return []
    q = q.where('t.name', 'ilike', containsPattern(search))
    // Names starting with the search first, then the others, each by name.
    q = q.orderBy(sql`starts_with(lower(t.name), ${search.toLowerCase()})`, 'desc')
  }
  return q.orderBy(sql`lower(t.name)`).orderBy('t.id').limit(TAG_RESULTS_MAX).execute()
}

async function lockContext(db: Db, context: 'product', key: string) {
  // The only context so far; others (work orders ...) add their check here.
  if (context === 'product') return (await lockProduct(db, key)).id
  throw invalidField({ path: 'context', kind: 'choice', message: 'unknown context' })
}

/**
 * `POST tag/update-connections`: `add` links a tag (by `tag_key`, or by `tag_name`, which creates
 * the tag when no tag has that name in any case); `remove` unlinks it. Answers the item's tags.
 * Adding a tag already there or removing one that is not changes nothing.
 */
export async function updateTagConnection(svc: Services, actor: Actor, input: TagConnection): Promise<Tag[]> {
  if (!input.tag_key && !input.tag_name) throw invalidField({ path: 'tag_name', kind: 'required', message: 'give tag_key or tag_name' })
  const now = svc.clock.now()
  const run = () =>
    svc.db.transaction().execute(async (trx) => {
      const itemKey = await lockContext(trx, input.context, input.context_key)
      let tag: { id: string; name: string } | undefined
      if (input.tag_key) {
        tag = await trx.selectFrom('tags').select(['id', 'name']).where('id', '=', input.tag_key).executeTakeFirst()
        if (!tag) throw notFound('NOT_FOUND', 'tag not found')
      } else {
        const name = input.tag_name!.trim()
        tag = await trx.selectFrom('tags').select(['id', 'name']).where(sql<string>`lower(name)`, '=', name.toLowerCase()).executeTakeFirst()
        if (!tag && input.type === 'remove') throw notFound('NOT_FOUND', 'tag not found')
        if (!tag) {
          tag = await trx.insertInto('tags').values({ name, created_at: now }).returning(['id', 'name']).executeTakeFirstOrThrow()
          await appendEvent(trx, actor, { event_type: 'TAG_CREATED', subject_type: 'tag', subject_key: tag.id, data: { name } }, now)
        }
      }
      const link = { tag_id: tag.id, context: input.context, context_key: itemKey }
      const changed =
        input.type === 'add'
          ? (await trx.insertInto('tag_links').values(link).onConflict((oc) => oc.doNothing()).returning('tag_id').execute()).length > 0
          : (
              await trx
                .deleteFrom('tag_links')
                .where('tag_id', '=', tag.id)
                .where('context', '=', input.context)
                .where('context_key', '=', itemKey)
                .returning('tag_id')
                .execute()
            ).length > 0
      if (changed) {
        if (input.context === 'product') await trx.updateTable('products').set({ updated_at: now }).where('id', '=', itemKey).execute()
        await appendEvent(
          trx,
          actor,
          {
            event_type: input.type === 'add' ? 'TAG_ADDED' : 'TAG_REMOVED',
            subject_type: input.context,
            subject_key: itemKey,
            data: { tag_key: tag.id, tag_name: tag.name },
          },
          now,
        )
      }
      return itemKey
    })
  let itemKey: string
  try {
    itemKey = await run()
  } catch (e) {
    // Two people creating the same new name at once: the second one finds it on a retry.
    if (!isUniqueViolation(e)) throw e
    itemKey = await run()
  }
  return itemTags(svc.db, input.context, itemKey)
}
