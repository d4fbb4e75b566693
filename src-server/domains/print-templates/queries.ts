import { sql } from 'kysely'
import type { Db } from '../../db/connect'

/** The stored file of a template's base PDF (served at /media/{base_pdf_key}). */
export const basePdfKey = (id: string) => `print-templates/${id}/base.pdf`

export function selectTemplateRows(db: Db) {
  return db
    .selectFrom('print_templates as t')
    .select([
      't.id as _key',
      't.name',
      't.base_pdf_name',
      sql<string>`'/media/' || t.base_pdf_key`.as('base_pdf_url'),
      't.pages',
      't.page_width',
      't.page_height',
      't.fields',
      't.context',
      't.context_key',
      't.temp',
      sql<boolean>`t.trashed_at is not null`.as('trash'),
      sql<number>`(extract(epoch from t.created_at) * 1000)::float8`.as('created_at'),
      sql<number>`(extract(epoch from t.updated_at) * 1000)::float8`.as('updated_at'),
    ])
}
