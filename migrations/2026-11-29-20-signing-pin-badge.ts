import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Signing with a personal PIN (issue 22, docs/signatures.md): `pin_hash` is the argon2id hash of
// the user's PIN (never the PIN), `badge` the code the user's badge scanner types, unique, so a
// badge names one person. Both optional: a user without them signs with the password.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column if not exists pin_hash text`.execute(db)
  await sql`alter table users add column if not exists badge text`.execute(db)
  await sql`create unique index if not exists users_badge on users (badge) where badge is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists users_badge`.execute(db)
  await sql`alter table users drop column if exists badge`.execute(db)
  await sql`alter table users drop column if exists pin_hash`.execute(db)
}
