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

/**
 * Codes of the issues of one type, for the "in use" message. The issues table comes with the
 * issues work (its `issue_type_id` refers here with ON DELETE RESTRICT); until then there are none.
 */
export async function issueCodesOfType(db: Db, typeId: string): Promise<string[]> {
  const { rows } = await sql<{ exists: boolean }>`select to_regclass('issues') is not null as exists`.execute(db)
  if (!rows[0]?.exists) return []
  const issues = await sql<{ code: string }>`select code::text as code from issues where issue_type_id = ${typeId} order by code limit 100`.execute(db)
  return issues.rows.map((r) => r.code)
}
