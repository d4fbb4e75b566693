import { beforeAll, describe, expect, test } from 'bun:test'
import { DEFAULT_PHASE_PARAMETERS, type PhaseParameters } from '../../../src/domains/process/phase-parameters'
import { DEFAULT_SETTINGS } from '../../../src/domains/settings/schemas'
import { ADMIN_PASSWORD, type Harness, signIn, userWithScope, useHarness } from '../../test/harness'
import { pngBytes } from '../../test/png'

const eventsOf = (h: Harness, type: string) =>
  h.svc.db.selectFrom('events').selectAll().where('event_type', '=', type).orderBy('id').execute()

const settingRows = (h: Harness) => h.svc.db.selectFrom('settings').selectAll().orderBy('key').execute()

function logoForm(bytes: Uint8Array<ArrayBuffer>, name = 'logo.png', type = 'image/png') {
  const form = new FormData()
  form.append('new_logo', new File([bytes], name, { type }))
  return form
}

describe('settings', () => {
  const h = useHarness()
  let admin: string
  beforeAll(async () => {
    admin = await signIn(h, 'admin', ADMIN_PASSWORD)
  })

  test('defaults before anything is saved', async () => {
    const res = await h.request('GET', '/api/settings', { token: admin })
    expect(res.status).toBe(200)
    expect(res.body.detail).toEqual({ ...DEFAULT_SETTINGS, logo_url: null })
    const phase = await h.request('GET', '/api/settings/default-phase', { token: admin })
    expect(phase.body.detail).toEqual(DEFAULT_PHASE_PARAMETERS)
  })

  test('the company tab saves name and hourly cost, with an event listing what changed', async () => {
    const res = await h.request('PATCH', '/api/settings', {
      token: admin,
      body: { company_name: '  Officine Rossi S.p.A. ', operator_hourly_cost: 27.5 },
    })
    expect(res.status).toBe(200)
    expect(res.body.detail.company_name).toBe('Officine Rossi S.p.A.')
    expect(res.body.detail.operator_hourly_cost).toBe(27.5)
    const [event] = await eventsOf(h, 'SETTINGS_UPDATED')
    expect(event?.subject_type).toBe('settings')
    expect(event?.data).toEqual({
      changes: {
        company_name: { from: '', to: 'Officine Rossi S.p.A.' },
        operator_hourly_cost: { from: 0, to: 27.5 },
      },
    })
    expect(event?.user_id).toBeTruthy()
    expect(event?.session_id).toBeTruthy()
  })

  test('saving the same values again changes nothing and appends no event', async () => {
    const before = (await eventsOf(h, 'SETTINGS_UPDATED')).length
    const res = await h.request('PATCH', '/api/settings', { token: admin, body: { company_name: 'Officine Rossi S.p.A.' } })
    expect(res.status).toBe(200)
    expect((await eventsOf(h, 'SETTINGS_UPDATED')).length).toBe(before)
  })

  test('operator hourly cost below 0 is refused with its own code, nothing written', async () => {
    const rows = await settingRows(h)
    const events = (await eventsOf(h, 'SETTINGS_UPDATED')).length
    const res = await h.request('PATCH', '/api/settings', {
      token: admin,
      body: { company_name: 'Changed', operator_hourly_cost: -0.01 },
    })
    expect(res.status).toBe(400)
    expect(res.body.detail).toEqual({ code: 'OPERATOR_HOURLY_COST_NEGATIVE', message: 'operator hourly cost must be >= 0' })
    expect(await settingRows(h)).toEqual(rows)
    expect((await eventsOf(h, 'SETTINGS_UPDATED')).length).toBe(events)
  })

  test('bad values and unknown keys are 400, never 5xx', async () => {
    for (const body of [
      { idle_lock_minutes: 0 },
      { idle_lock_minutes: 2.5 },
      { idle_lock_minutes: 24 * 60 + 1 },
      { autocomplete_min_chars_serials: 0 },
      { autocomplete_min_chars_tags: 'three' },
      { allow_unassigned_jobs: 'yes' },
      { operator_hourly_cost: 'cheap' },
      { company_name: 'x'.repeat(201) },
      { mystery: true },
      '"text"', // a JSON string, not an object
      42,
    ]) {
      const res = await h.request('PATCH', '/api/settings', { token: admin, body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.detail.code).toBe('INVALID_INPUT')
    }
  })

  test('the other tab: flags, idle lock (kept where sessions read it) and autocomplete minimums', async () => {
    const body = {
      allow_unassigned_jobs: false,
      independent_queue_reordering: true,
      serial_code_edit: true,
      serial_delete: true,
      inventory_management: true,
      idle_lock_minutes: 5,
      autocomplete_min_chars_serials: 4,
      autocomplete_min_chars_tags: 2,
    }
    const res = await h.request('PATCH', '/api/settings', { token: admin, body })
    expect(res.status).toBe(200)
    expect(res.body.detail).toMatchObject(body)
    const stored = await h.svc.db.selectFrom('settings').select('value').where('key', '=', 'idle_lock_minutes').executeTakeFirst()
    expect(stored?.value).toBe(5)
    // The session layer reads the same row: a new session reports the new idle timeout.
    const token = await signIn(h, 'admin', ADMIN_PASSWORD)
    const who = await h.request('GET', '/api/whoami', { token })
    const info = await h.request('POST', '/api/session', { token, body: { user_key: who.body.detail.user_key } })
    expect(info.body.detail.idle_lock_minutes).toBe(5)
    const events = await eventsOf(h, 'SETTINGS_UPDATED')
    expect(Object.keys(events.at(-1)?.data.changes as object).sort()).toEqual(Object.keys(body).sort())
    // Restore the default so later sessions in this file do not lock after 5 fake minutes.
    await h.request('PATCH', '/api/settings', { token: admin, body: { idle_lock_minutes: 15 } })
  })

  test('default phase parameters: saved whole, with units as numbers and an event', async () => {
    const params: PhaseParameters = {
      unsupervised_work_allowed: true,
      auto_new_batch: false,
      max_offline: 600,
      parallel_job_allowed: true,
      display_job_timer: false,
      production_batch_qt: 0,
      release_batch_qt: 25,
      release_style: 'release_batch',
      std_processing_time: 90,
      step_check: false,
      step_check_force_order: true,
    }
    const res = await h.request('PUT', '/api/settings/default-phase', { token: admin, body: params })
    expect(res.status).toBe(200)
    expect(res.body.detail).toEqual(params)
    expect((await h.request('GET', '/api/settings/default-phase', { token: admin })).body.detail).toEqual(params)
    const [event] = await eventsOf(h, 'DEFAULT_PHASE_PARAMETERS_UPDATED')
    expect((event?.data.changes as Record<string, unknown>).release_style).toEqual({ from: 'continuous', to: 'release_batch' })
    expect((event?.data.changes as Record<string, unknown>).max_offline).toEqual({ from: 300, to: 600 })
  })

  test('phase parameters: release_batch needs release_batch_qt > 0; counts are non-negative integers', async () => {
    const before = await h.request('GET', '/api/settings/default-phase', { token: admin })
    const events = (await eventsOf(h, 'DEFAULT_PHASE_PARAMETERS_UPDATED')).length
    const base = before.body.detail as PhaseParameters
    const bad = await h.request('PUT', '/api/settings/default-phase', {
      token: admin,
      body: { ...base, release_style: 'release_batch', release_batch_qt: 0 },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.detail.code).toBe('RELEASE_BATCH_QT_REQUIRED')
    for (const patch of [
      { max_offline: -1 },
      { std_processing_time: 1.5 },
      { production_batch_qt: -3 },
      { release_batch_qt: 'ten' },
      { release_style: 'sometimes' },
      { step_check: 1 },
      { max_offline: 86_401 },
    ]) {
      const res = await h.request('PUT', '/api/settings/default-phase', { token: admin, body: { ...base, ...patch } })
      expect(res.status, JSON.stringify(patch)).toBe(400)
      expect(res.body.detail.code).toBe('INVALID_INPUT')
    }
    const { step_check: _, ...incomplete } = base
    expect((await h.request('PUT', '/api/settings/default-phase', { token: admin, body: incomplete })).status).toBe(400)
    // Other release styles accept a zero release batch.
    const ok = await h.request('PUT', '/api/settings/default-phase', {
      token: admin,
      body: { ...base, release_style: 'job', release_batch_qt: 0 },
    })
    expect(ok.status).toBe(200)
    expect((await eventsOf(h, 'DEFAULT_PHASE_PARAMETERS_UPDATED')).length).toBe(events + 1)
  })

  test('a 2:1 logo is refused by decoding the image, nothing stored', async () => {
    const rows = await settingRows(h)
    // The client says "image/png" and a square name; only the decoded header counts.
    const res = await h.request('PUT', '/api/settings/logo', { token: admin, body: logoForm(pngBytes(2, 1), 'square.png') })
    expect(res.status).toBe(400)
    expect(res.body.detail).toEqual({ code: 'LOGO_NOT_SQUARE', message: 'the logo must be square (1:1)', width: 2, height: 1 })
    expect(await settingRows(h)).toEqual(rows)
    expect(await eventsOf(h, 'COMPANY_LOGO_CHANGED')).toEqual([])
  })

  test('a file that is not an image is refused whatever its declared type', async () => {
    const res = await h.request('PUT', '/api/settings/logo', {
      token: admin,
      body: logoForm(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'logo.png'),
    })
    expect(res.status).toBe(400)
    expect(res.body.detail.code).toBe('INVALID_IMAGE')
    const none = await h.request('PUT', '/api/settings/logo', { token: admin, body: new FormData() })
    expect(none.status).toBe(400)
    expect(none.body.detail.code).toBe('INVALID_INPUT')
  })

  test('a square logo is stored, served under /media and replaced; removing it deletes the file', async () => {
    const first = await h.request('PUT', '/api/settings/logo', { token: admin, body: logoForm(pngBytes(4, 4)) })
    expect(first.status).toBe(200)
    const url1 = first.body.detail.logo_url as string
    expect(url1).toMatch(/^\/media\/settings\/logo-.+\.png$/)
    const served = await h.app.request(`http://mes.test${url1}`, { headers: { authorization: `Bearer ${admin}` } })
    expect(served.status).toBe(200)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(pngBytes(4, 4))

    const second = await h.request('PUT', '/api/settings/logo', { token: admin, body: logoForm(pngBytes(3, 3, [200, 0, 0])) })
    expect(second.status).toBe(200)
    const url2 = second.body.detail.logo_url as string
    expect(url2).not.toBe(url1)
    expect(await h.svc.files.get(url1.slice('/media/'.length))).toBeNull()
    expect((await eventsOf(h, 'COMPANY_LOGO_CHANGED')).map((e) => e.data)).toEqual([
      {
        type: 'png',
        width: 4,
        height: 4,
        bytes: pngBytes(4, 4).byteLength,
        changed: ['company_logo'],
        changes: { company_logo: { from: null, to: url1.slice('/media/'.length) } },
      },
      {
        type: 'png',
        width: 3,
        height: 3,
        bytes: pngBytes(3, 3, [200, 0, 0]).byteLength,
        changed: ['company_logo'],
        changes: { company_logo: { from: url1.slice('/media/'.length), to: url2.slice('/media/'.length) } },
      },
    ])

    const removed = await h.request('DELETE', '/api/settings/logo', { token: admin })
    expect(removed.status).toBe(200)
    expect(removed.body.detail.logo_url).toBeNull()
    expect(await h.svc.files.get(url2.slice('/media/'.length))).toBeNull()
    expect((await eventsOf(h, 'COMPANY_LOGO_REMOVED')).length).toBe(1)
    // Removing again: nothing to do, no second event.
    expect((await h.request('DELETE', '/api/settings/logo', { token: admin })).status).toBe(200)
    expect((await eventsOf(h, 'COMPANY_LOGO_REMOVED')).length).toBe(1)
  })

  test('the same service answers over tRPC', async () => {
    const get = await h.request('GET', '/api/trpc/settings.get', { token: admin })
    expect(get.status).toBe(200)
    expect(get.body.result.data.company_name).toBe('Officine Rossi S.p.A.')
    const bad = await h.request('POST', '/api/trpc/settings.update', { token: admin, body: { operator_hourly_cost: -5 } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.data.appCode).toBe('OPERATOR_HOURLY_COST_NEGATIVE')
    const phase = await h.request('POST', '/api/trpc/settings.setDefaultPhase', {
      token: admin,
      body: { ...DEFAULT_PHASE_PARAMETERS, release_style: 'release_batch', release_batch_qt: 0 },
    })
    expect(phase.body.error.data.appCode).toBe('RELEASE_BATCH_QT_REQUIRED')
  })

  describe('who may read and write', () => {
    let operator: string
    let library: string
    let production: string
    beforeAll(async () => {
      operator = (await userWithScope(h, 'op1', 'operator')).token
      library = (await userWithScope(h, 'lib1', 'library')).token
      production = (await userWithScope(h, 'prod1', 'production')).token
    })

    test('every signed-in user reads the settings; the hourly cost only admin, production and reporting', async () => {
      const asOperator = await h.request('GET', '/api/settings', { token: operator })
      expect(asOperator.status).toBe(200)
      expect(asOperator.body.detail.company_name).toBe('Officine Rossi S.p.A.')
      expect(asOperator.body.detail.operator_hourly_cost).toBeNull()
      const asProduction = await h.request('GET', '/api/settings', { token: production })
      expect(asProduction.body.detail.operator_hourly_cost).toBe(27.5)
      expect((await h.request('GET', '/api/settings')).status).toBe(401)
    })

    test('default phase parameters: admin and library read; only admin writes', async () => {
      expect((await h.request('GET', '/api/settings/default-phase', { token: library })).status).toBe(200)
      expect((await h.request('GET', '/api/settings/default-phase', { token: operator })).status).toBe(403)
      const put = await h.request('PUT', '/api/settings/default-phase', { token: library, body: DEFAULT_PHASE_PARAMETERS })
      expect(put.status).toBe(403)
    })

    test('only admin changes settings and the logo; refusals write nothing', async () => {
      const rows = await settingRows(h)
      for (const token of [operator, library, production]) {
        expect((await h.request('PATCH', '/api/settings', { token, body: { company_name: 'Hacked' } })).status).toBe(403)
        expect((await h.request('PUT', '/api/settings/logo', { token, body: logoForm(pngBytes(2, 2)) })).status).toBe(403)
        expect((await h.request('DELETE', '/api/settings/logo', { token })).status).toBe(403)
        const trpc = await h.request('POST', '/api/trpc/settings.update', { token, body: { company_name: 'Hacked' } })
        expect(trpc.status).toBe(403)
      }
      expect(await settingRows(h)).toEqual(rows)
    })
  })
})
