import { randomInt } from 'node:crypto'
import type { Database } from '#db/client.ts'
import { hashPassword, verifyPassword } from '../passwords.ts'
import { consumeBackupCode, replaceBackupCodeHashes, unusedBackupCodes } from './factor-store.ts'
import { MFA_LIMITS } from './mfa-limits.ts'

/** One-time recovery codes: 10 characters (≈ 50 bits) each, stored as argon2id hashes (ASVS 6.5.2). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

/** Fresh codes as shown once (xxxxx-xxxxx), and their hashes to store. */
export async function newBackupCodes(): Promise<{ shown: string[]; hashes: string[] }> {
  const codes = Array.from({ length: MFA_LIMITS.backupCodes }, () =>
    Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
  )
  const hashes = await Promise.all(codes.map((code) => hashPassword(code)))
  return { shown: codes.map((code) => `${code.slice(0, 5)}-${code.slice(5)}`), hashes }
}

/** Ten new codes for the user in place of any old ones; the clear codes are returned once. */
export async function replaceBackupCodes(db: Database, userId: string): Promise<string[]> {
  const { shown, hashes } = await newBackupCodes()
  await replaceBackupCodeHashes(db, userId, hashes)
  return shown
}

/** Uses one of the user's unused codes (normalised: lower case, no dash); false when none matches. */
export async function redeemBackupCode(db: Database, userId: string, code: string): Promise<boolean> {
  const unused = await unusedBackupCodes(db, userId)
  const matches = await Promise.all(
    unused.map((row) => verifyPassword({ hash: row.codeHash, password: code })),
  )
  const match = unused[matches.indexOf(true)]
  // Single use even under concurrent requests: only one update finds it unused.
  return match ? consumeBackupCode(db, match.id) : false
}
