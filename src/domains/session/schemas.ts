import * as v from 'valibot'
import { HOME_PAGE_NAMES } from '../../auth/scopes'
import { LOCALES } from '../../i18n/locale'

export const PASSWORD_MIN_LENGTH = 8

export const LoginInput = v.object({
  username: v.pipe(v.string(), v.trim(), v.minLength(1, 'username required'), v.maxLength(100)),
  password: v.pipe(v.string(), v.minLength(1, 'password required'), v.maxLength(200)),
})

export const Preferences = v.object({
  locale: v.nullable(v.picklist(LOCALES)),
  home_page: v.nullable(v.picklist(HOME_PAGE_NAMES)),
  theme: v.picklist(['light', 'dark']),
})
export type Preferences = v.InferOutput<typeof Preferences>
export const DEFAULT_PREFERENCES: Preferences = { locale: null, home_page: null, theme: 'light' }

export const PreferencesPatch = v.partial(Preferences)

export const SessionInput = v.object({ user_key: v.pipe(v.string(), v.minLength(1), v.maxLength(100)) })

export const SessionInfo = v.object({
  user_key: v.string(),
  session_key: v.string(),
  username: v.string(),
  name: v.string(),
  surname: v.string(),
  scope: v.string(),
  preferences: Preferences,
  must_change_password: v.boolean(),
  idle_lock_minutes: v.number(),
  /** Whether the user has set a personal signing PIN (docs/signatures.md). */
  has_pin: v.boolean(),
})
export type SessionInfo = v.InferOutput<typeof SessionInfo>

/** The sign-in answer carries the session details too: the client needs no whoami and POST session after it. */
export const LoginResult = v.object({
  token: v.string(),
  user_key: v.string(),
  must_change_password: v.boolean(),
  session: SessionInfo,
})
export type LoginResult = v.InferOutput<typeof LoginResult>

export const WhoAmI = v.object({ user_key: v.string(), session_key: v.nullable(v.string()), locked: v.boolean() })

export const UnlockInput = v.object({ password: v.pipe(v.string(), v.minLength(1, 'password required'), v.maxLength(200)) })

export const ChangePasswordInput = v.object({
  current_password: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  new_password: v.pipe(
    v.string(),
    v.minLength(PASSWORD_MIN_LENGTH, `the new password needs at least ${PASSWORD_MIN_LENGTH} characters`),
    v.maxLength(200),
  ),
})

/** `POST pin`: sets or replaces the own signing PIN; the current password proves it is the user. */
export const SetPinInput = v.object({
  current_password: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  // Digits and length are checked against the plant's minimum by the service (PIN_INVALID).
  new_pin: v.pipe(v.string(), v.maxLength(100)),
})
