import { describe, expect, test } from 'bun:test'
import { entriesToData, kindOf, serialValueText } from './serial-data'

const e = (name: string, kind: 'text' | 'number' | 'boolean' | 'json', text = '', checked = false) => ({ name, kind, text, checked })

describe('entriesToData', () => {
  test('each kind back to its value: text as typed, numbers with a decimal comma or point, switches, JSON', () => {
    expect(
      entriesToData([e('note', 'text', ' a b '), e('pressione', 'number', '6,25'), e('giri', 'number', '1450'), e('ok', 'boolean', '', true), e('misure', 'json', '[1,2]')]),
    ).toEqual({ ok: true, data: { note: ' a b ', pressione: 6.25, giri: 1450, ok: true, misure: [1, 2] } })
  })

  test('a number that is not one, or JSON that does not parse, names the field; a nameless new field is left out', () => {
    expect(entriesToData([e('pressione', 'number', '1.234,5')])).toEqual({ ok: false, name: 'pressione' })
    expect(entriesToData([e('pressione', 'number', '6 bar')])).toEqual({ ok: false, name: 'pressione' })
    expect(entriesToData([e('misure', 'json', '[1,')])).toEqual({ ok: false, name: 'misure' })
    expect(entriesToData([e('  ', 'text', 'x'), e(' colore ', 'text', 'rosso')])).toEqual({ ok: true, data: { colore: 'rosso' } })
  })

  test('kindOf reads the stored value', () => {
    expect([kindOf('x'), kindOf(1.5), kindOf(false), kindOf({ a: 1 }), kindOf(null)]).toEqual(['text', 'number', 'boolean', 'json', 'json'])
  })
})

describe('serialValueText', () => {
  test('numbers in the user locale, lists by item, strings as they are', () => {
    expect(serialValueText(12.5, 'it')).toBe('12,5')
    expect(serialValueText(12.5, 'en')).toBe('12.5')
    expect(serialValueText(1234.125, 'it')).toBe('1234,125')
    expect(serialValueText([1.5, 'rosso'], 'it')).toBe('1,5, rosso')
    expect(serialValueText('12.5', 'it')).toBe('12.5')
    expect(serialValueText({ a: 1 }, 'it')).toBe('{"a":1}')
  })
})
