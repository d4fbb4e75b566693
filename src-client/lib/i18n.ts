import { i18n } from '@lingui/core'
import { chooseLocale, type Locale } from '../../src/i18n/locale'

const catalogs: Record<Locale, () => Promise<{ messages: Record<string, unknown> }>> = {
  it: () => import('../locales/it/messages.po'),
  en: () => import('../locales/en/messages.po'),
}

export async function activateLocale(locale: Locale) {
  if (i18n.locale === locale) return
  const { messages } = await catalogs[locale]()
  i18n.load(locale, messages as never)
  i18n.activate(locale)
  document.documentElement.lang = locale
}

/** SPEC 9: the user's preference, else the browser language, else Italian. */
export const localeFor = (preference: string | null | undefined) => chooseLocale(preference, navigator.language)

export { i18n }
