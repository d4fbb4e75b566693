import { describe, expect, test } from 'bun:test'
import { SearchWrites } from './list-search'

describe('SearchWrites: a search box tells its own echoes from changes made elsewhere', () => {
  test('an echo arriving after a later write is still the box\'s own (the text typed since stays)', () => {
    const w = new SearchWrites<string>()
    w.wrote('WO000')
    w.wrote('WO0000')
    // Typing back to what the URL says now is still a write: the URL is about to say WO0000.
    expect(w.settled('WO')).toBe('WO0000')
    // The first write comes back late, after the second was sent: not a change.
    expect(w.cameBack('WO000')).toBe(true)
    expect(w.cameBack('WO0000')).toBe(true)
    // Nothing pending: any other value is a change made elsewhere, and the state says what it says.
    expect(w.cameBack('WO0000')).toBe(false)
    expect(w.settled('WO')).toBe('WO')
  })

  test('an echo skipping earlier writes drops them; a change from elsewhere forgets every pending write', () => {
    const w = new SearchWrites<string | undefined>()
    w.wrote('a')
    w.wrote('ab')
    expect(w.cameBack('ab')).toBe(true)
    expect(w.cameBack('a')).toBe(false)
    w.wrote('abc')
    // Filters cleared (or back in history) before the echo: the box follows, and the late echo is a change too.
    expect(w.cameBack(undefined)).toBe(false)
    expect(w.cameBack('abc')).toBe(false)
  })
})
