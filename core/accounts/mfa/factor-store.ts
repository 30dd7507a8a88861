import { createHash } from 'node:crypto'
import { and, asc, count, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm'
import type { Database } from '#db/client.ts'
import {
  authBackupCodes,
  authFactorChallenges,
  authFactors,
  authPendingSignIns,
  sessions,
} from '#db/schema/index.ts'

/** The SQL of multi-factor authentication: factors, challenges, backup codes, pending sign-ins. */

export type Factor = typeof authFactors.$inferSelect
export type Challenge = typeof authFactorChallenges.$inferSelect
export type PendingSignIn = typeof authPendingSignIns.$inferSelect

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

export function listFactors(db: Database, userId: string): Promise<Factor[]> {
  return db
    .select()
    .from(authFactors)
    .where(eq(authFactors.userId, userId))
    .orderBy(asc(authFactors.createdAt))
}

export function verifiedFactors(db: Database, userId: string): Promise<Factor[]> {
  return db
    .select()
    .from(authFactors)
    .where(and(eq(authFactors.userId, userId), eq(authFactors.status, 'verified')))
    .orderBy(asc(authFactors.createdAt))
}

/** One factor of the user's, or null (someone else's is as absent as a missing one). */
export async function findOwnFactor(db: Database, userId: string, factorId: string): Promise<Factor | null> {
  const [row] = await db
    .select()
    .from(authFactors)
    .where(and(eq(authFactors.id, factorId), eq(authFactors.userId, userId)))
  return row ?? null
}

/** Enrolments never finished before `olderThan` are dropped, so they block neither a name nor the limit. */
export async function dropStaleEnrolments(db: Database, userId: string, olderThan: Date): Promise<void> {
  await db
    .delete(authFactors)
    .where(
      and(
        eq(authFactors.userId, userId),
        eq(authFactors.status, 'unverified'),
        lt(authFactors.createdAt, olderThan),
      ),
    )
}

/** Inserts a new (unverified) factor; null when the user already has one of that name. */
export async function insertFactor(
  db: Database,
  values: typeof authFactors.$inferInsert,
): Promise<Factor | null> {
  const [created] = await db.insert(authFactors).values(values).onConflictDoNothing().returning()
  return created ?? null
}

/** Removes a factor; the backup codes go with the last verified one (they would back up nothing). */
export async function removeFactor(db: Database, userId: string, factorId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(authFactors).where(and(eq(authFactors.id, factorId), eq(authFactors.userId, userId)))
    const [left] = await tx
      .select({ n: count() })
      .from(authFactors)
      .where(and(eq(authFactors.userId, userId), eq(authFactors.status, 'verified')))
    if ((left?.n ?? 0) === 0) await tx.delete(authBackupCodes).where(eq(authBackupCodes.userId, userId))
  })
}

/** Only a step newer than the last accepted one passes, atomically: a TOTP code never works twice. */
export async function advanceTotpStep(db: Database, factorId: string, step: number): Promise<boolean> {
  const advanced = await db
    .update(authFactors)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(authFactors.id, factorId),
        sql`(${authFactors.lastUsedStep} is null or ${authFactors.lastUsedStep} < ${step})`,
      ),
    )
    .returning({ id: authFactors.id })
  return advanced.length > 0
}

/**
 * A factor passed its code for a signed-in session, in one transaction: the factor is used (and
 * verified, if it was being set up), the first verified factor gets its backup codes (hashes
 * given) and the session becomes aal2. Turning the second step on (the first verified factor)
 * also ends the account's other sessions: they were signed in with the password alone.
 */
export async function recordFactorVerified(
  db: Database,
  {
    factorId,
    userId,
    sessionToken,
    backupCodeHashes,
    now = new Date(),
  }: {
    factorId: string
    userId: string
    sessionToken: string
    backupCodeHashes: string[] | null
    now?: Date
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [factor] = await tx
      .update(authFactors)
      .set({ lastUsedAt: now })
      .where(eq(authFactors.id, factorId))
      .returning({ status: authFactors.status })
    if (factor?.status !== 'verified') {
      await tx
        .update(authFactors)
        .set({ status: 'verified', verifiedAt: now })
        .where(eq(authFactors.id, factorId))
    }
    if (backupCodeHashes) {
      await writeBackupCodeHashes(tx, userId, backupCodeHashes)
      await tx.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.token, sessionToken)))
    }
    await tx.update(sessions).set({ aal: 'aal2' }).where(eq(sessions.token, sessionToken))
  })
}

/** A factor passed its code in a pending sign-in: only its last use is recorded. */
export async function markFactorUsed(db: Database, factorId: string, now = new Date()): Promise<void> {
  await db.update(authFactors).set({ lastUsedAt: now }).where(eq(authFactors.id, factorId))
}

export async function setSessionAal2(db: Database, sessionToken: string): Promise<void> {
  await db.update(sessions).set({ aal: 'aal2' }).where(eq(sessions.token, sessionToken))
}

// Backup codes

async function writeBackupCodeHashes(tx: Transaction, userId: string, hashes: string[]): Promise<void> {
  await tx.delete(authBackupCodes).where(eq(authBackupCodes.userId, userId))
  await tx.insert(authBackupCodes).values(hashes.map((codeHash) => ({ userId, codeHash })))
}

/** New backup codes (their hashes) in place of all old ones. */
export async function replaceBackupCodeHashes(db: Database, userId: string, hashes: string[]): Promise<void> {
  await db.transaction((tx) => writeBackupCodeHashes(tx, userId, hashes))
}

export async function backupCodesRemaining(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(authBackupCodes)
    .where(and(eq(authBackupCodes.userId, userId), isNull(authBackupCodes.usedAt)))
  return row?.n ?? 0
}

export function unusedBackupCodes(db: Database, userId: string) {
  return db
    .select()
    .from(authBackupCodes)
    .where(and(eq(authBackupCodes.userId, userId), isNull(authBackupCodes.usedAt)))
}

/** Marks a backup code used; false when another request used it first (single use under concurrency). */
export async function consumeBackupCode(db: Database, id: string): Promise<boolean> {
  const consumed = await db
    .update(authBackupCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(authBackupCodes.id, id), isNull(authBackupCodes.usedAt)))
    .returning({ id: authBackupCodes.id })
  return consumed.length > 0
}

// Challenges

export async function insertChallenge(db: Database, values: typeof authFactorChallenges.$inferInsert) {
  await db.insert(authFactorChallenges).values(values)
}

/** An open challenge of the factor: not used, not expired. */
export async function findOpenChallenge(
  db: Database,
  { challengeId, factorId }: { challengeId: string; factorId: string },
  now = new Date(),
): Promise<Challenge | null> {
  const [challenge] = await db
    .select()
    .from(authFactorChallenges)
    .where(
      and(
        eq(authFactorChallenges.id, challengeId),
        eq(authFactorChallenges.factorId, factorId),
        isNull(authFactorChallenges.verifiedAt),
        gt(authFactorChallenges.expiresAt, now),
      ),
    )
  return challenge ?? null
}

/** Marks a challenge answered; false when another request answered it first. */
export async function closeChallenge(db: Database, challengeId: string): Promise<boolean> {
  const used = await db
    .update(authFactorChallenges)
    .set({ verifiedAt: new Date() })
    .where(and(eq(authFactorChallenges.id, challengeId), isNull(authFactorChallenges.verifiedAt)))
    .returning({ id: authFactorChallenges.id })
  return used.length > 0
}

export async function countChallengeFailure(db: Database, challengeId: string): Promise<void> {
  await db
    .update(authFactorChallenges)
    .set({ failedAttempts: sql`${authFactorChallenges.failedAttempts} + 1` })
    .where(eq(authFactorChallenges.id, challengeId))
}

// Pending sign-ins (the cookie holds a token; the table its SHA-256)

export async function insertPendingSignIn(
  db: Database,
  {
    token,
    userId,
    dontRemember,
    expiresAt,
  }: { token: string; userId: string; dontRemember: boolean; expiresAt: Date },
): Promise<void> {
  await db.insert(authPendingSignIns).values({ tokenHash: sha256(token), userId, dontRemember, expiresAt })
}

export async function findPendingSignIn(db: Database, token: string, now = new Date()) {
  const [pending] = await db
    .select()
    .from(authPendingSignIns)
    .where(and(eq(authPendingSignIns.tokenHash, sha256(token)), gt(authPendingSignIns.expiresAt, now)))
  return pending ?? null
}

/** One more wrong code in a pending sign-in; returns how many it has had. */
export async function countPendingFailure(db: Database, tokenHash: string): Promise<number> {
  const [row] = await db
    .update(authPendingSignIns)
    .set({ failedAttempts: sql`${authPendingSignIns.failedAttempts} + 1` })
    .where(eq(authPendingSignIns.tokenHash, tokenHash))
    .returning({ failedAttempts: authPendingSignIns.failedAttempts })
  return row?.failedAttempts ?? 0
}

export async function deletePendingSignIn(db: Database, tokenHash: string): Promise<void> {
  await db.delete(authPendingSignIns).where(eq(authPendingSignIns.tokenHash, tokenHash))
}

/** Consumes a pending sign-in once; null when another request consumed it first. */
export async function consumePendingSignIn(db: Database, tokenHash: string) {
  const [consumed] = await db
    .delete(authPendingSignIns)
    .where(eq(authPendingSignIns.tokenHash, tokenHash))
    .returning({ dontRemember: authPendingSignIns.dontRemember })
  return consumed ?? null
}

/** Pending sign-ins and challenges past their life. */
export async function dropExpired(db: Database, now = new Date()): Promise<void> {
  await db.delete(authPendingSignIns).where(lt(authPendingSignIns.expiresAt, now))
  await db.delete(authFactorChallenges).where(lt(authFactorChallenges.expiresAt, now))
}
