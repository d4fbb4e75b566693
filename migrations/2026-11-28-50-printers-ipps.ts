import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any>.
// Printers reached by IPP over TLS (ipps://, RFC 7472) beside plain IPP and raw TCP.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table printers drop constraint printers_protocol_known`.execute(db)
  await sql`alter table printers add constraint printers_protocol_known check (protocol in ('ipp', 'ipps', 'raw'))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table printers drop constraint printers_protocol_known`.execute(db)
  await sql`alter table printers add constraint printers_protocol_known check (protocol in ('ipp', 'raw'))`.execute(db)
}
