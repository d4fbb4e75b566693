/** argon2id through Bun; unknown users are checked against a dummy hash so timing does not reveal them. */
export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: 'argon2id' })

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
