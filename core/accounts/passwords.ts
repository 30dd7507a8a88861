import { hash, verify } from '@node-rs/argon2'

/**
 * argon2id at OWASP's minimum (m = 19 MiB, t = 2, p = 1); better-auth's default scrypt
 * parameters are below ASVS appendix C. `algorithm: 2` is Algorithm.Argon2id (a const enum,
 * which erasable TypeScript cannot import).
 */
export const PASSWORD_HASHING = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASHING)
}

export function verifyPassword({
  hash: digest,
  password,
}: {
  hash: string
  password: string
}): Promise<boolean> {
  return verify(digest, password).catch(() => false)
}
