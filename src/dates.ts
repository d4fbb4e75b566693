import * as v from 'valibot'

/**
 * Calendar days as inputs take them: SPEC 5 "Date format is YYYY/MM/DD", and ISO 8601
 * YYYY-MM-DD as scripts often write them. Years 0001-9999 (four digits, as PostgreSQL and the
 * screens show them). Every route and procedure that takes a day uses `DayInput`, so the rule
 * and its messages are the same everywhere.
 */
export const DAY_FORMATS = 'YYYY/MM/DD or YYYY-MM-DD'

const DAY_SHAPE = /^(\d{4})([/-])(\d{2})\2(\d{2})$/
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

function daysIn(year: number, month: number): number {
  // setUTCFullYear, not Date.UTC: that reads years 0-99 as 1900-1999.
  const d = new Date(0)
  d.setUTCFullYear(year, month, 0)
  return d.getUTCDate()
}

/** Why `text` is not a day (null: it is one). */
export function dayProblem(text: string): string | null {
  const m = DAY_SHAPE.exec(text)
  if (!m) return `"${text}" is not a date: dates are written ${DAY_FORMATS}`
  const [year, month, day] = [Number(m[1]), Number(m[3]), Number(m[4])]
  if (year === 0) return `${text} is not a calendar date: there is no year 0000`
  if (month < 1 || month > 12) return `${text} is not a calendar date: there is no month ${m[3]}`
  const last = daysIn(year, month)
  if (day < 1 || day > last) return `${text} is not a calendar date: ${MONTHS[month - 1]} ${m[1]} has ${last} days`
  return null
}

/** A valid day in the SPEC form YYYY/MM/DD (from either accepted form). */
export const toSpecDay = (text: string) => text.replaceAll('-', '/')

/** A day as input: YYYY/MM/DD or YYYY-MM-DD, a real calendar day; the output is always YYYY/MM/DD. */
export const DayInput = v.pipe(
  v.string(`dates are written ${DAY_FORMATS}`),
  v.regex(DAY_SHAPE, (issue) => dayProblem(String(issue.input)) ?? ''),
  // The calendar, once the shape is right (a wrong shape is the regex's issue alone).
  v.check((text) => !DAY_SHAPE.test(text) || dayProblem(text) === null, (issue) => dayProblem(String(issue.input)) ?? ''),
  v.description(`A calendar day, ${DAY_FORMATS} (SPEC 5 writes YYYY/MM/DD; ISO 8601 is accepted too). Years 0001-9999.`),
  v.metadata({ examples: ['2026/11/25', '2026-11-25'] }),
  v.transform(toSpecDay),
)
