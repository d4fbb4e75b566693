/**
 * argon2id cost (Bun's defaults: 64 MiB, 2 passes). Only the test harness lowers it, so suites
 * with hundreds of sign-ins stay fast; verification reads the cost from each stored hash.
 */
export const passwordCost = { memoryCost: 65_536, timeCost: 2 }

/** argon2id through Bun; unknown users are checked against a dummy hash so timing does not reveal them. */
export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: 'argon2id', ...passwordCost })

let dummyHash: Promise<string> | undefined

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('not-a-real-password')
    await Bun.password.verify(password, await dummyHash)
    return false
  }
  try {
    return await Bun.password.verify(password, hash)
  } catch {
    return false
  }
}
