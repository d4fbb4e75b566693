import { describe, expect, test } from 'bun:test'
import { wordDiff } from './word-diff'

describe('wordDiff', () => {
  test('marks the words removed and added, keeping the shared ones', () => {
    expect(wordDiff('Stringi la vite a 5 Nm', 'Stringi la vite M4 a 6 Nm')).toEqual([
      { text: 'Stringi la vite ', kind: 'same' },
      { text: 'M4 ', kind: 'added' },
      { text: 'a ', kind: 'same' },
      { text: '5', kind: 'removed' },
      { text: '6', kind: 'added' },
      { text: ' Nm', kind: 'same' },
    ])
  })
  test('equal texts are one kept part; an empty side is all added or removed', () => {
    expect(wordDiff('a b', 'a b')).toEqual([{ text: 'a b', kind: 'same' }])
    expect(wordDiff('', 'nuovo')).toEqual([{ text: 'nuovo', kind: 'added' }])
    expect(wordDiff('vecchio', '')).toEqual([{ text: 'vecchio', kind: 'removed' }])
  })
})
