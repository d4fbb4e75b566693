import { sql } from 'kysely'
import type { PositionRow } from '../../../src/domains/positions/schemas'
import type { Db } from '../../db/connect'

const ms = (column: string) => sql<number>`(extract(epoch from ${sql.ref(column)}) * 1000)::float8`

/** Positions with their parent code, the codes from the root down and how many children they have. */
export function selectPositionRows(db: Db) {
  return db
    .selectFrom('positions as p')
    .leftJoin('positions as parent', 'parent.id', 'p.parent_id')
    .select([
      'p.id as _key',
      'p.code',
      'p.description',
      'p.parent_id as parent_key',
      'parent.code as parent_code',
      sql<string[]>`array(
        select a.code from unnest(string_to_array(rtrim(p.path, '/'), '/')::uuid[]) with ordinality as u(id, i)
        join positions a on a.id = u.id order by u.i)`.as('path_codes'),
      sql<number>`(length(p.path) - length(replace(p.path, '/', '')) - 1)::int`.as('depth'),
      'p.owned',
      'p.fixed',
      'p.available',
      'p.disposable',
      'p.active',
      sql<number>`(select count(*) from positions c where c.parent_id = p.id)::int`.as('children'),
      ms('p.created_at').as('created_at'),
      ms('p.updated_at').as('updated_at'),
    ])
    .$castTo<PositionRow>()
}

/** Tree changes (create under a parent, move) are serialised so two moves cannot close a loop. */
export async function lockPositionTree(db: Db): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('mes.positions.tree'))`.execute(db)
}

/** The ids of a position and everything below it, as a subquery. */
export function subtreeIds(db: Db, path: string) {
  return db.selectFrom('positions as sub').select('sub.id').where('sub.path', 'like', `${escapeLike(path)}%`)
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)
