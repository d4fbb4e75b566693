export const LOCALES = ['it', 'en'] as const
export type Locale = (typeof LOCALES)[number]

/** SPEC 9: the user's preference, else the browser language, else Italian. 'it*' is Italian, anything else English. */
export function chooseLocale(preference: string | null | undefined, browserLanguage: string | null | undefined): Locale {
  const source = preference || browserLanguage
  if (!source) return 'it'
  return source.toLowerCase().startsWith('it') ? 'it' : 'en'
}
