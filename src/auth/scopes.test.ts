import { describe, expect, test } from 'bun:test'
import { formatScope, HOME_PAGES, hasScope, homePagePath, isScope, parseScope, SCOPES } from './scopes'

describe('hasScope (whole-word pattern match on the scope string)', () => {
  test('finds a permission anywhere in a space-separated scope', () => {
    expect(hasScope('admin', 'admin')).toBe(true)
    expect(hasScope('operator production', 'production')).toBe(true)
    expect(hasScope('operator production', 'operator')).toBe(true)
    expect(hasScope('library  quality', 'quality')).toBe(true)
    expect(hasScope('library\tquality', 'library')).toBe(true)
  })

  test('a permission is a whole word: no prefixes, suffixes or substrings', () => {
    expect(hasScope('administrator', 'admin')).toBe(false)
    expect(hasScope('superadmin', 'admin')).toBe(false)
    expect(hasScope('operators', 'operator')).toBe(false)
    expect(hasScope('admin-operator', 'operator')).toBe(false)
    expect(hasScope('', 'admin')).toBe(false)
    expect(hasScope('production', 'operator')).toBe(false)
  })

  test('every permission word is recognised in a full scope and only there', () => {
    const full = SCOPES.join(' ')
    for (const s of SCOPES) {
      expect(hasScope(full, s)).toBe(true)
      expect(hasScope(SCOPES.filter((x) => x !== s).join(' '), s)).toBe(false)
    }
  })
})

describe('parseScope / formatScope / isScope', () => {
  test('unknown words are dropped; the canonical form is ordered and without duplicates', () => {
    expect(parseScope('quality bogus admin')).toEqual(['quality', 'admin'])
    expect(parseScope('   ')).toEqual([])
    expect(formatScope(['warehouse', 'admin', 'admin', 'operator'])).toBe('admin operator warehouse')
    expect(formatScope([])).toBe('')
    expect(isScope('reporting')).toBe(true)
    expect(isScope('report')).toBe(false)
  })
})

describe('homePagePath (SPEC "Homepage choice")', () => {
  test('priority: operator, production, library, admin, quality, traceability, reporting, warehouse', () => {
    expect(HOME_PAGES.map((h) => h.scope)).toEqual(['operator', 'production', 'library', 'admin', 'quality', 'traceability', 'reporting', 'warehouse', 'audit'])
    expect(homePagePath(SCOPES.join(' '))).toBe('/app/operator')
    expect(homePagePath('admin production')).toBe('/app/production')
    expect(homePagePath('admin library')).toBe('/app/library')
    expect(homePagePath('quality admin')).toBe('/app/admin')
    expect(homePagePath('reporting quality')).toBe('/app/quality')
    expect(homePagePath('reporting traceability')).toBe('/app/traceability')
    expect(homePagePath('reporting')).toBe('/app/report')
    expect(homePagePath('warehouse reporting')).toBe('/app/report')
    expect(homePagePath('warehouse')).toBe('/app/warehouse')
  })

  test('the home_page preference wins when the user may open it', () => {
    expect(homePagePath('operator admin', 'adminPanel')).toBe('/app/admin')
    expect(homePagePath('operator reporting', 'reportRoot')).toBe('/app/report')
  })

  test('a preference the scope does not allow, or an unknown one, falls back to the priority', () => {
    expect(homePagePath('operator', 'adminPanel')).toBe('/app/operator')
    expect(homePagePath('quality', 'nowhere')).toBe('/app/quality')
    expect(homePagePath('production', null)).toBe('/app/production')
  })

  test('no destination matches: null (the client shows an error screen)', () => {
    expect(homePagePath('')).toBeNull()
    expect(homePagePath('', 'adminPanel')).toBeNull()
  })

  test('a warehouse-only user lands on the warehouse area (issue 14)', () => {
    expect(homePagePath('warehouse')).toBe('/app/warehouse')
    expect(homePagePath('warehouse', 'adminPanel')).toBe('/app/warehouse')
    expect(homePagePath('warehouse operator', 'warehouseRoot')).toBe('/app/warehouse')
  })
})
