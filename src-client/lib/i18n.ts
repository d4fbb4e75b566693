import { i18n } from '@lingui/core'
import { chooseLocale, type Locale } from '../../src/i18n/locale'

type Part = () => Promise<{ messages: Record<string, unknown> }>

/**
 * Each locale's catalog in two parts (scripts/vite-catalog-parts.ts): what the sign-in page and
 * the operator's screens say, loaded with the locale, and what only the office areas' screens
 * say, loaded before the first of them (the operator's tablet never downloads it).
 */
const catalogs: Record<Locale, { floor: Part; office: Part }> = {
  it: { floor: () => import('../locales/it/messages.po?floor?lingui'), office: () => import('../locales/it/messages.po?office?lingui') },
  en: { floor: () => import('../locales/en/messages.po?floor?lingui'), office: () => import('../locales/en/messages.po?office?lingui') },
}

/** Whether an office screen was opened: a change of language then loads its part too. */
let officeWanted = false
const loaded = new Map<string, Promise<void>>()

function loadPart(locale: Locale, part: 'floor' | 'office'): Promise<void> {
  const key = `${locale}/${part}`
  let done = loaded.get(key)
  if (!done) {
    done = catalogs[locale][part]().then(({ messages }) => i18n.load(locale, messages as never))
    // A failed download (offline) may be tried again on the next navigation.
    done.catch(() => loaded.delete(key))
    loaded.set(key, done)
  }
  return done
}

export async function activateLocale(locale: Locale) {
  if (i18n.locale === locale) return
  await Promise.all([loadPart(locale, 'floor'), ...(officeWanted ? [loadPart(locale, 'office')] : [])])
  i18n.activate(locale)
  document.documentElement.lang = locale
}

/** Before an office screen shows (routes/app.tsx): its messages in the active locale. */
export function loadOfficeMessages(): Promise<void> {
  officeWanted = true
  return loadPart(i18n.locale as Locale, 'office')
}

/** SPEC 9: the user's preference, else the browser language, else Italian. */
export const localeFor = (preference: string | null | undefined) => chooseLocale(preference, navigator.language)

export { i18n }
