import { sql } from 'kysely'
import {
  GENEALOGY_MAX_DEPTH,
  GENEALOGY_MAX_ROWS,
  type Genealogy,
  type GenealogyDirection,
  type GenealogyRow,
} from '../../../src/domains/serials/schemas'
import type { Db } from '../../db/connect'

type Found = GenealogyRow & { above: string | null }

/**
 * The links as genealogy reads them. A component declared per batch or per job (a lot of glue, a
 * box of screws) is scanned once, into piece 1 of the batch (of the job's first batch), yet went
 * into every piece: its link counts for every other piece serial of that batch (of that job) too,
 * so each piece shows it and the component shows every piece. The link itself stays one row.
 */
const piecesLinks = sql`
  select x.id, x.parent_serial_id, x.child_serial_id from serial_links x
  union all
  select x.id, other.id, x.child_serial_id
  from serial_links x
  join bom_lines b on b.id = x.bom_line_id and b.quantity_per = 'batch'
  join serials holder on holder.id = x.parent_serial_id
  join serials other on other.batch_id = x.batch_id and other.piece is not null and other.id <> holder.id and other.product_id = holder.product_id
  union all
  select x.id, other.id, x.child_serial_id
  from serial_links x
  join bom_lines b on b.id = x.bom_line_id and b.quantity_per = 'job'
  join serials holder on holder.id = x.parent_serial_id
  join serials other on other.job_id = holder.job_id and other.piece is not null and other.id <> holder.id and other.product_id = holder.product_id`

/**
 * Genealogy of one serial as a recursive CTE over serial_links (indexed by parent and by child):
 * backward = everything it is made of, every level (parent -> children); forward = everything it
 * went into (child -> parent, up to the outermost). The CTE carries keys only (no arrays copied
 * per row) and stops after GENEALOGY_MAX_ROWS + 1 rows; depth is bounded by GENEALOGY_MAX_DEPTH,
 * which keeps a read finite even over a cycle the link service would have refused. Rows are
 * then put depth-first, siblings by code, so a client shows them as an indented table.
 */
export async function readGenealogy(db: Db, serialId: string, direction: GenealogyDirection): Promise<Genealogy> {
  const [from, to] = direction === 'backward' ? ['parent_serial_id', 'child_serial_id'] : ['child_serial_id', 'parent_serial_id']
  const { rows } = await sql<Found>`
    with recursive l(id, parent_serial_id, child_serial_id) as (${piecesLinks}),
    g(id, above, link_id, depth) as (
      select ${serialId}::uuid, null::uuid, null::uuid, 0
      union all
      select l.${sql.raw(to)}, g.id, l.id, g.depth + 1
      from g join l on l.${sql.raw(from)} = g.id
      where g.depth < ${GENEALOGY_MAX_DEPTH}
    )
    select g.depth, s.id as serial_key, g.above, s.code, p.code as product_code, p.description as product_description,
      s.state, g.link_id as link_key, (extract(epoch from s.created_at) * 1000)::float8 as created_at
    from (select * from g limit ${GENEALOGY_MAX_ROWS + 1}) g
    join serials s on s.id = g.id join products p on p.id = s.product_id`.execute(db)
  const truncated = rows.length > GENEALOGY_MAX_ROWS
  return { serial_key: serialId, direction, rows: depthFirst(rows.slice(0, GENEALOGY_MAX_ROWS)), truncated }
}

/** Each row followed by the rows under it, siblings by code; the serial asked for first. */
function depthFirst(rows: Found[]): GenealogyRow[] {
  const under = new Map<string | null, Found[]>()
  for (const r of rows) {
    const key = r.depth === 0 ? null : r.above
    const list = under.get(key)
    if (list) list.push(r)
    else under.set(key, [r])
  }
  for (const list of under.values()) list.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
  const out: GenealogyRow[] = []
  const stack = [...(under.get(null) ?? [])].reverse()
  while (stack.length) {
    const { above: _, ...row } = stack.pop()!
    out.push(row)
    // Over a cycle the same serial comes back deeper: follow each (serial, depth) once.
    const children = (under.get(row.serial_key) ?? []).filter((c) => c.depth === row.depth + 1)
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!)
  }
  return out
}
