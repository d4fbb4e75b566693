import { type Kysely, sql } from 'kysely'

// Frozen in time: written against Kysely<any> so later schema types never change it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('departments')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // Codes are unique ignoring case: "asm" and "ASM" are the same department.
  await sql`create unique index departments_code_unique on departments (lower(code))`.execute(db)

  // users.department_id had nothing to point at until now: clear any dangling value, then
  // let the database refuse deleting a department still assigned to someone.
  await sql`update users set department_id = null where department_id is not null`.execute(db)
  await db.schema
    .alterTable('users')
    .addForeignKeyConstraint('users_department_fk', ['department_id'], 'departments', ['id'], (c) => c.onDelete('restrict'))
    .execute()
  await db.schema.createIndex('users_department').on('users').column('department_id').execute()

  // The API token list is read newest first.
  await db.schema.createIndex('api_tokens_created').on('api_tokens').column('created_at').execute()
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only')
}
