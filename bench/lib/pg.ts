import pg from 'pg'

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/'

/** `url` with another database name (the path), credentials and query kept. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

/** Creates a throwaway database next to `adminUrl`'s; `drop()` removes it even with open connections. */
export async function createThrowawayDatabase(adminUrl: string, prefix: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const host = new URL(adminUrl).hostname
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1' && host !== '[::1]') {
    throw new Error(`benchmarks use a PostgreSQL on this machine only, not ${host}`)
  }
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }
  await admin(`CREATE DATABASE "${name}"`)
  return { name, url: withDatabase(adminUrl, name), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) }
}
