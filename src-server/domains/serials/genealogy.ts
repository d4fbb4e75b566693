import { sql } from 'kysely'
import {
  GENEALOGY_MAX_DEPTH,
  GENEALOGY_MAX_ROWS,
  type Genealogy,
  type GenealogyDirection,
  type GenealogyRow,
} from '../../../src/domains/serials/schemas'
import type { Db } from '../../db/connect'

/**
 * Genealogy of one serial as a recursive CTE over serial_links (indexed by parent and by child):
 * backward = everything it is made of, every level (parent -> children); forward = everything it
 * went into (child -> parent, up to the outermost). Rows come depth-first, siblings by code, so a
 * client shows them as an indented table. `seen` guards against a cycle (the link service refuses
 * them, this keeps a read finite whatever the data), depth and row count are bounded.
 */
export async function readGenealogy(db: Db, serialId: string, direction: GenealogyDirection): Promise<Genealogy> {
  const [from, to] = direction === 'backward' ? ['parent_serial_id', 'child_serial_id'] : ['child_serial_id', 'parent_serial_id']
  const { rows } = await sql<GenealogyRow>`
    with recursive g(id, link_id, depth, seen, path) as (
      select s.id, null::uuid, 0, array[s.id], array[s.code]
      from serials s where s.id = ${serialId}
      union all
      select n.id, l.id, g.depth + 1, g.seen || n.id, g.path || n.code
      from g
      join serial_links l on l.${sql.raw(from)} = g.id
      join serials n on n.id = l.${sql.raw(to)}
      where g.depth < ${GENEALOGY_MAX_DEPTH} and not n.id = any(g.seen)
    )
    select g.depth, s.id as serial_key, s.code, p.code as product_code, p.description as product_description,
      s.state, g.link_id as link_key, (extract(epoch from s.created_at) * 1000)::float8 as created_at
    from g join serials s on s.id = g.id join products p on p.id = s.product_id
    order by g.path
    limit ${GENEALOGY_MAX_ROWS + 1}`.execute(db)
  const truncated = rows.length > GENEALOGY_MAX_ROWS
  return { serial_key: serialId, direction, rows: truncated ? rows.slice(0, GENEALOGY_MAX_ROWS) : rows, truncated }
}
