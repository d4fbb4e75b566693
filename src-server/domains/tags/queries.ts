import { sql } from 'kysely'
import type { Tag } from '../../../src/domains/products/schemas'
import type { Db } from '../../db/connect'

/** The tags linked to one item, by name. */
export function itemTags(db: Db, context: string, contextKey: string): Promise<Tag[]> {
  return db
    .selectFrom('tag_links as tl')
    .innerJoin('tags as t', 't.id', 'tl.tag_id')
    .select(['t.id as _key', 't.name'])
    .where('tl.context', '=', context)
    .where('tl.context_key', '=', contextKey)
    .orderBy(sql`lower(t.name)`)
    .orderBy('t.id')
    .execute()
}
