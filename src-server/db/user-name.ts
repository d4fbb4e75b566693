import { sql } from 'kysely'

/** A user's name as people read it: name and surname, else the username (null when `alias` joined no user). */
export const fullName = (alias: string) =>
  sql<string | null>`coalesce(nullif(trim(${sql.ref(`${alias}.name`)} || ' ' || ${sql.ref(`${alias}.surname`)}), ''), ${sql.ref(`${alias}.username`)})`
