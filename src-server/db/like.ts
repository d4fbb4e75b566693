/** `ILIKE` pattern for "contains": the user's `%`, `_` and `\` are taken literally (PostgreSQL's default escape). */
export const containsPattern = (search: string) => `%${search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
