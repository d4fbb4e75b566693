import { sql } from 'kysely'

/** A timestamptz column as UTC milliseconds, the way times leave the API (docs/conventions.md). */
export const ms = (column: string) => sql<number>`(extract(epoch from ${sql.ref(column)}) * 1000)::float8`

/** The same for a nullable column. */
export const msOrNull = (column: string) => sql<number | null>`(extract(epoch from ${sql.ref(column)}) * 1000)::float8`
