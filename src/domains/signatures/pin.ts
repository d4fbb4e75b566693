import { PIN_MAX_LENGTH } from './schemas'

/**
 * Why a new personal PIN is refused, or null: digits only, from the plant's minimum length to
 * PIN_MAX_LENGTH, and not one of the first guesses (one digit repeated, a run up or down like
 * 123456 or 987654). Shared by the preferences screen and the server.
 */
export function pinProblem(pin: string, minLength: number): 'PIN_INVALID' | 'PIN_TOO_SIMPLE' | null {
  if (!/^\d+$/.test(pin) || pin.length < minLength || pin.length > PIN_MAX_LENGTH) return 'PIN_INVALID'
  const steps = new Set([...pin].slice(1).map((d, i) => (Number(d) - Number(pin[i]) + 10) % 10))
  if (steps.size === 1 && [0, 1, 9].includes([...steps][0]!)) return 'PIN_TOO_SIMPLE'
  return null
}
