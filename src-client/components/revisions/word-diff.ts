/** A piece of text in a comparison: kept, only in the old text, or only in the new one. */
export type WordPart = { text: string; kind: 'same' | 'removed' | 'added' }

/**
 * The words two texts share in order (a longest common subsequence over words and the spaces
 * between them), the rest marked removed or added. Step texts are short, so quadratic is fine.
 */
export function wordDiff(before: string, after: string): WordPart[] {
  const a = before.split(/(\s+)/).filter(Boolean)
  const b = after.split(/(\s+)/).filter(Boolean)
  const len = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) len[i]![j] = a[i] === b[j] ? len[i + 1]![j + 1]! + 1 : Math.max(len[i + 1]![j]!, len[i]![j + 1]!)
  const parts: WordPart[] = []
  const push = (text: string, kind: WordPart['kind']) => {
    const last = parts.at(-1)
    if (last?.kind === kind) last.text += text
    else parts.push({ text, kind })
  }
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      push(a[i]!, 'same')
      i++
      j++
    } else if (j >= b.length || (i < a.length && len[i + 1]![j]! >= len[i]![j + 1]!)) push(a[i++]!, 'removed')
    else push(b[j++]!, 'added')
  }
  return parts
}
