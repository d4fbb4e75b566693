import { sql } from 'kysely'
import type { OperationRow } from '../../../src/domains/operations/schemas'
import type { Db } from '../../db/connect'

export function selectOperationRows(db: Db) {
  return db
    .selectFrom('operations as o')
    .select([
      'o.id as _key',
      'o.name',
      'o.default_phase_steps',
      sql<number>`(extract(epoch from o.created_at) * 1000)::float8`.as('created_at'),
      sql<number>`(extract(epoch from o.updated_at) * 1000)::float8`.as('updated_at'),
    ])
    .$castTo<OperationRow>()
}
