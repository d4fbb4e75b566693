/** `ILIKE` pattern for "contains", with the user's `%`, `_` and `\` taken literally. */
export const containsPattern = (search: string) => `%${search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
