import { ISSUE_CONTEXT_TYPES, ISSUE_SORTS, ISSUE_STATES, type IssueContextType, type IssueState } from '../../../src/domains/issues/schemas'
import { isUuid } from '../../../src/uuid'

type Sort = (typeof ISSUE_SORTS)[number]

/** The overview's filters live in the URL, so a filtered view can be bookmarked and shared. */
export type IssuesSearch = {
  state?: string
  critical?: true
  type?: string
  ctx?: IssueContextType
  from?: string
  to?: string
  q?: string
  sort?: Sort
  dir?: 'asc' | 'desc'
  page?: number
}

const pick = <T extends string>(values: readonly T[], v: unknown): T | undefined => (values.includes(v as T) ? (v as T) : undefined)
const day = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined)

export function validateIssuesSearch(raw: Record<string, unknown>): IssuesSearch {
  const parts = typeof raw.state === 'string' ? raw.state.split(',') : []
  const states = ISSUE_STATES.filter((s) => parts.includes(s))
  const page = Number(raw.page)
  return {
    state: states.length ? states.join(',') : undefined,
    critical: raw.critical === true || raw.critical === 'true' ? true : undefined,
    type: typeof raw.type === 'string' && isUuid(raw.type) ? raw.type : undefined,
    ctx: pick(ISSUE_CONTEXT_TYPES, raw.ctx),
    from: day(raw.from),
    to: day(raw.to),
    q: typeof raw.q === 'string' && raw.q.trim() ? raw.q.slice(0, 100) : undefined,
    sort: pick(ISSUE_SORTS, raw.sort),
    dir: pick(['asc', 'desc'] as const, raw.dir),
    page: Number.isInteger(page) && page > 1 ? page : undefined,
  }
}

export const searchStates = (s: IssuesSearch): IssueState[] => (s.state ? (s.state.split(',') as IssueState[]) : [])

/** The overview's last filters: the detail's way back returns to the same view. */
let last: IssuesSearch = {}
export const rememberIssuesSearch = (s: IssuesSearch) => {
  last = s
}
export const lastIssuesSearch = () => last
