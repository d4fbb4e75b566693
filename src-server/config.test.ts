import { describe, expect, test } from 'bun:test'
import { ConfigError, readConfig } from './config'

const fails = (env: Record<string, string | undefined>) => {
  try {
    readConfig(env)
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError)
    return (e as Error).message
  }
  throw new Error(`readConfig accepted ${JSON.stringify(env)}`)
}

describe('readConfig: the environment parsed in one place', () => {
  test('defaults with nothing set', () => {
    expect(readConfig({})).toMatchObject({
      port: 8000,
      databaseUrl: undefined,
      dataDir: './data',
      adminPassword: undefined,
      apiPrefix: '/api',
      demo: false,
    })
  })

  test('every variable is read', () => {
    expect(
      readConfig({
        PORT: '9123',
        DATABASE_URL: 'postgres://mes:secret@db:5432/mes',
        MES_DATA_DIR: '/var/lib/mes',
        MES_ADMIN_PASSWORD: 'long-enough',
        API_PREFIX: '/v1/api',
        MES_DEMO: '1',
      }),
    ).toMatchObject({
      port: 9123,
      databaseUrl: 'postgres://mes:secret@db:5432/mes',
      dataDir: '/var/lib/mes',
      adminPassword: 'long-enough',
      apiPrefix: '/v1/api',
      demo: true,
    })
    expect(readConfig({ DATABASE_URL: 'postgresql://localhost/x' }).databaseUrl).toBe('postgresql://localhost/x')
    expect(readConfig({ MES_DEMO: '0' }).demo).toBe(false)
    expect(readConfig({ MES_DEMO: '' }).demo).toBe(false)
  })

  test('unrelated variables are ignored', () => {
    expect(readConfig({ HOME: '/root', PATH: '/bin', NODE_ENV: 'production' }).port).toBe(8000)
  })

  test('bad values name the variable and say what is expected', () => {
    expect(fails({ PORT: 'abc' })).toContain('PORT: PORT must be a whole number')
    expect(fails({ PORT: '80.5' })).toContain('PORT must be a whole number')
    expect(fails({ PORT: '0' })).toContain('PORT must be 1-65535')
    expect(fails({ PORT: '70000' })).toContain('PORT must be 1-65535')
    expect(fails({ DATABASE_URL: 'mysql://db/mes' })).toContain('DATABASE_URL must start with postgres://')
    expect(fails({ MES_DATA_DIR: '' })).toContain('MES_DATA_DIR must not be empty')
    expect(fails({ MES_ADMIN_PASSWORD: 'short' })).toContain('MES_ADMIN_PASSWORD must have at least 8 characters')
    expect(fails({ API_PREFIX: 'api' })).toContain('API_PREFIX must look like /api')
    expect(fails({ API_PREFIX: '/api/' })).toContain('API_PREFIX')
    expect(fails({ API_PREFIX: '/' })).toContain('API_PREFIX')
    expect(fails({ MES_DEMO: 'yes' })).toContain('MES_DEMO must be 1 or 0')
  })

  test('trusted proxies: none by default; addresses and CIDR ranges of both families; the client header', () => {
    expect(readConfig({})).toMatchObject({ trustedProxies: [], proxyClientHeader: 'x-forwarded-for' })
    expect(readConfig({ MES_TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8,::1 , fd00::/8', MES_TRUSTED_PROXY_HEADER: 'X-Real-IP' })).toMatchObject({
      trustedProxies: ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8'],
      proxyClientHeader: 'x-real-ip',
    })
    for (const bad of ['localhost', '10.0.0.0/33', '10.0.0.1/8/2', 'fd00::/129', '300.1.1.1', '10.0.0.0/x']) {
      expect(fails({ MES_TRUST_PROXY: bad })).toContain('MES_TRUST_PROXY must be addresses or CIDR ranges')
    }
    expect(fails({ MES_TRUSTED_PROXY_HEADER: 'X Forwarded For' })).toContain('MES_TRUSTED_PROXY_HEADER must be a header name')
  })

  test('all problems are reported at once', () => {
    const message = fails({ PORT: 'x', DATABASE_URL: 'http://nope', MES_DEMO: 'true' })
    expect(message).toStartWith('Invalid environment:')
    expect(message).toContain('PORT')
    expect(message).toContain('DATABASE_URL')
    expect(message).toContain('MES_DEMO')
  })
})
