import { describe, expect, test } from 'bun:test'
import { oeeParts } from './oee'

const MIN = 60_000
const base = { pause_ms: 0, forced_pause_ms: 0, offline_ms: 0, scrapped: 0 }

describe('oeeParts', () => {
  test('a batch faster than its standard: performance stays raw, OEE takes it capped at 100 %', () => {
    // 10 pieces of 60 min standard done in 2 hours of run, with an hour of pauses: performance 5.
    const r = oeeParts({ ...base, run_ms: 120 * MIN, pause_ms: 60 * MIN, std_ms: 600 * MIN, pieces: 10, scrapped: 1 })
    expect(r.performance).toBeCloseTo(5, 10)
    expect(r.availability).toBeCloseTo(2 / 3, 10)
    expect(r.planned_ms).toBe(180 * MIN)
    expect(r.oee).toBeCloseTo((2 / 3) * 1 * 0.9, 10)
  })

  test('no stop, no scrap and exactly the standard: OEE is 100 % and never above', () => {
    const r = oeeParts({ ...base, run_ms: 60 * MIN, std_ms: 6000 * MIN, pieces: 5 })
    expect(r.oee).toBe(1)
  })

  test('a performance below 100 % is used as it is', () => {
    const r = oeeParts({ ...base, run_ms: 100 * MIN, std_ms: 80 * MIN, pieces: 4 })
    expect(r.oee).toBeCloseTo(0.8, 10)
  })
})
