import { chooseLocale } from '../../src/i18n/locale'
import type { UseCaseCtx } from './use-case'

/** The language of a document the server lays out: the asked one, else the user's preference, else the browser's, else Italian. */
export function languageOf(ctx: UseCaseCtx & { hono?: import('hono').Context }, lang: 'it' | 'en' | undefined): 'it' | 'en' {
  if (lang) return lang
  const preference = ctx.auth.user.preferences?.locale
  return chooseLocale(typeof preference === 'string' ? preference : null, ctx.hono?.req.header('accept-language') ?? null)
}
