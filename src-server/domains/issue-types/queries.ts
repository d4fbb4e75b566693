import { sql } from 'kysely'
import type { IssueTypeRow } from '../../../src/domains/issue-types/schemas'
import type { Db } from '../../db/connect'

export function selectIssueTypeRows(db: Db) {
  return db
    .selectFrom('issue_types as t')
    .select([
      't.id as _key',
      't.code',
      't.name',
      't.close_within_hours as close_within',
      't.critical',
      't.link_type',
      't.print_templates',
      't.active',
      sql<number>`(extract(epoch from t.created_at) * 1000)::float8`.as('created_at'),
      sql<number>`(extract(epoch from t.updated_at) * 1000)::float8`.as('updated_at'),
    ])
    .$castTo<IssueTypeRow>()
}

/** Codes of the issues of one type (the first 100 by code), for the "in use" message. */
export async function issueCodesOfType(db: Db, typeId: string): Promise<string[]> {
  const rows = await db.selectFrom('issues').select('code').where('type_id', '=', typeId).orderBy('code').limit(100).execute()
  return rows.map((r) => r.code)
}
