import { ISSUE_CONTEXT_TYPES, ISSUE_SORTS, ISSUE_STATES, type IssueContextType, type IssueState } from '../../../src/domains/issues/schemas'
import { isUuid } from '../../../src/uuid'
import { pageNumber, pick, searchText } from '../../lib/list-search'

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

const day = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined)

export function validateIssuesSearch(raw: Record<string, unknown>): IssuesSearch {
  const parts = typeof raw.state === 'string' ? raw.state.split(',') : []
  const states = ISSUE_STATES.filter((s) => parts.includes(s))
  return {
    state: states.length ? states.join(',') : undefined,
    critical: raw.critical === true || raw.critical === 'true' ? true : undefined,
    type: typeof raw.type === 'string' && isUuid(raw.type) ? raw.type : undefined,
    ctx: pick(ISSUE_CONTEXT_TYPES, raw.ctx),
    from: day(raw.from),
    to: day(raw.to),
    q: searchText(raw.q),
    sort: pick(ISSUE_SORTS, raw.sort),
    dir: pick(['asc', 'desc'] as const, raw.dir),
    page: pageNumber(raw.page),
  }
}

export const searchStates = (s: IssuesSearch): IssueState[] => (s.state ? (s.state.split(',') as IssueState[]) : [])

/** The overview's last filters: the detail's way back returns to the same view. */
let last: IssuesSearch = {}
export const rememberIssuesSearch = (s: IssuesSearch) => {
  last = s
}
export const lastIssuesSearch = () => last
