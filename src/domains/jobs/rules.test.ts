import { describe, expect, test } from 'bun:test'
import {
  availableQt,
  calendarDate,
  correctionAllowed,
  correctionRefusal,
  type FilterFacts,
  isLate,
  isReady,
  matchesFilter,
  minimumQuantity,
  releaseDue,
  remainingQt,
} from './rules'

const job = (over: Partial<FilterFacts> = {}): FilterFacts => ({
  status: 'queued',
  active: false,
  quantity: 10,
  completed_qt: 0,
  active_qt: 0,
  operator_key: null,
  critical: false,
  work_order_critical: false,
  due_by: null,
  released_in_qt: 10,
  taken_qt: 0,
  ...over,
})

describe('job rules', () => {
  test('quantities: remaining, minimum when rebalancing, available material', () => {
    expect(remainingQt({ quantity: 10, completed_qt: 3, active_qt: 2 })).toBe(5)
    expect(remainingQt({ quantity: 4, completed_qt: 3, active_qt: 2 })).toBe(0)
    expect(minimumQuantity({ completed_qt: 3, active_qt: 2 })).toBe(5)
    // Phase 1: released_in = planned quantity, so the job's remaining pieces.
    expect(availableQt({ quantity: 10, completed_qt: 3, active_qt: 2 }, { released_in_qt: 10, taken_qt: 5 })).toBe(5)
    // Later phase: what upstream released and nobody took, capped by remaining.
    expect(availableQt({ quantity: 10, completed_qt: 0, active_qt: 0 }, { released_in_qt: 4, taken_qt: 1 })).toBe(3)
    expect(availableQt({ quantity: 2, completed_qt: 0, active_qt: 0 }, { released_in_qt: 9, taken_qt: 1 })).toBe(2)
    expect(availableQt({ quantity: 2, completed_qt: 0, active_qt: 0 }, { released_in_qt: 1, taken_qt: 3 })).toBe(0)
    expect(isReady(job({ status: 'closed' }), { released_in_qt: 10, taken_qt: 0 })).toBe(false)
  })

  test('correction guards (SPEC 4)', () => {
    const s = (over: Partial<FilterFacts>) => job(over)
    expect(correctionRefusal('reset_progress', s({ completed_qt: 0 }))).toBe('JOB_NO_PROGRESS')
    expect(correctionRefusal('reset_progress', s({ completed_qt: 2, active_qt: 1 }))).toBe('JOB_HAS_ACTIVE_PIECES')
    expect(correctionRefusal('reset_progress', s({ completed_qt: 2, status: 'paused' }))).toBeNull()
    expect(correctionRefusal('cancel_active_pieces', s({}))).toBe('JOB_NO_ACTIVE_PIECES')
    expect(correctionRefusal('cancel_active_pieces', s({ active_qt: 1, active: true, status: 'started' }))).toBe('JOB_RUNNING')
    expect(correctionRefusal('cancel_active_pieces', s({ active_qt: 1, status: 'paused' }))).toBeNull()
    expect(correctionRefusal('update_progress', s({ active_qt: 1 }))).toBe('JOB_HAS_ACTIVE_PIECES')
    expect(correctionRefusal('update_progress', s({}), true)).toBe('JOB_HAS_TRACEABILITY')
    expect(correctionRefusal('update_progress', s({ active: true, status: 'started' }))).toBe('JOB_RUNNING')
    expect(correctionAllowed('update_progress', s({}))).toBe(true)
    expect(correctionRefusal('update_times', s({}))).toBe('JOB_NOT_STARTED')
    expect(correctionRefusal('update_times', s({ status: 'closed' }))).toBeNull()
    expect(correctionRefusal('pause', s({ status: 'paused' }))).toBe('JOB_NOT_RUNNING')
    expect(correctionAllowed('pause', s({ status: 'started', active: true }))).toBe(true)
  })

  test('late and the plant day', () => {
    expect(calendarDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05')
    expect(isLate({ status: 'queued' }, '2026-01-04', '2026-01-05')).toBe(true)
    expect(isLate({ status: 'queued' }, '2026-01-05', '2026-01-05')).toBe(false)
    expect(isLate({ status: 'closed' }, '2026-01-04', '2026-01-05')).toBe(false)
    expect(isLate({ status: 'paused' }, null, '2026-01-05')).toBe(false)
  })

  test('filters', () => {
    const day = '2026-01-05'
    expect(matchesFilter('idle', job({ status: 'closed' }), day)).toBe(false)
    expect(matchesFilter('started', job({ status: 'paused' }), day)).toBe(true)
    expect(matchesFilter('critical', job({ work_order_critical: true }), day)).toBe(true)
    expect(matchesFilter('not_critical', job({ critical: true }), day)).toBe(false)
    // A closed job is never shown critical, even with an open critical issue of its own.
    expect(matchesFilter('critical', job({ status: 'closed', critical: true, work_order_critical: true }), day)).toBe(false)
    expect(matchesFilter('not_critical', job({ status: 'closed', critical: true }), day)).toBe(true)
    expect(matchesFilter('on_time', job({ status: 'closed', due_by: '2025-01-01' }), day)).toBe(true)
    expect(matchesFilter('not_ready', job({ released_in_qt: 3, taken_qt: 3 }), day)).toBe(true)
    expect(matchesFilter('not_ready', job({ status: 'closed', released_in_qt: 0 }), day)).toBe(false)
  })

  test('release styles', () => {
    const continuous = { release_style: 'continuous', release_batch_qt: 0 } as const
    const byJob = { release_style: 'job', release_batch_qt: 0 } as const
    const lots = { release_style: 'release_batch', release_batch_qt: 4 } as const
    expect(releaseDue(continuous, { completed_qt: 3, released_qt: 1, closed: false })).toBe(2)
    expect(releaseDue(byJob, { completed_qt: 3, released_qt: 0, closed: false })).toBe(0)
    expect(releaseDue(byJob, { completed_qt: 3, released_qt: 0, closed: true })).toBe(3)
    expect(releaseDue(lots, { completed_qt: 9, released_qt: 0, closed: false })).toBe(8)
    expect(releaseDue(lots, { completed_qt: 9, released_qt: 8, closed: false })).toBe(0)
    expect(releaseDue(lots, { completed_qt: 9, released_qt: 8, closed: true })).toBe(1)
    expect(releaseDue(continuous, { completed_qt: 2, released_qt: 5, closed: false })).toBe(0)
  })
})
