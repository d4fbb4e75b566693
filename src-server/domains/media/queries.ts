import { sql } from 'kysely'
import type { MediaRow } from '../../../src/domains/process/media'
import type { Db } from '../../db/connect'

/** Media as the API shows them; the file is at `/media/{_key}`. */
export function selectMediaRows(db: Db) {
  return db
    .selectFrom('media as m')
    .select([
      'm.id as _key',
      'm.filename',
      'm.content_type',
      'm.size',
      sql<string>`'/media/' || m.id`.as('url'),
      sql<number>`(extract(epoch from m.created_at) * 1000)::float8`.as('created_at'),
    ])
    .$castTo<MediaRow>()
}
