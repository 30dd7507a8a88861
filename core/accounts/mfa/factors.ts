import { reauthenticate } from '../reauthentication.ts'
import { redeemBackupCode, replaceBackupCodes } from './backup-codes.ts'
import {
  countFailure,
  limitAccount,
  type MfaActor,
  type MfaDeps,
  releaseVerifyAttempt,
} from './challenges.ts'
import {
  backupCodesRemaining,
  dropStaleEnrolments,
  type Factor,
  findOwnFactor,
  insertFactor,
  listFactors,
  removeFactor,
  setSessionAal2,
  verifiedFactors,
} from './factor-store.ts'
import { invalidCode, invalidInput, nameTaken, notEnabled } from './mfa-failures.ts'
import {
  type Aal,
  factorNotFound,
  mayAddFactor,
  mayChangeProtectedSettings,
  maySetUpFactor,
  staleEnrolmentCutoff,
} from './mfa-policy.ts'
import { BackupCodeSchema, EnrollFactorSchema, FactorIdSchema } from './mfa-schemas.ts'
import { generateTotpSecret, otpauthUri } from './totp.ts'

/** A signed-in session, as the factor settings see it. */
export type SessionActor = { userId: string; email: string; aal: Aal; sessionToken: string; createdAt: Date }

export type FactorType = 'totp' | 'phone'

/** What a factor looks like to its owner: never its secret, and the phone partly hidden. */
export function publicFactor(factor: Factor) {
  return {
    id: factor.id,
    type: factor.type as FactorType,
    friendlyName: factor.friendlyName,
    status: factor.status as 'verified' | 'unverified',
    issuer: factor.issuer,
    phone: factor.phone ? maskPhone(factor.phone) : null,
    createdAt: factor.createdAt,
    verifiedAt: factor.verifiedAt,
    lastUsedAt: factor.lastUsedAt,
  }
}

export type PublicFactor = ReturnType<typeof publicFactor>

export function maskPhone(phone: string): string {
  return `${phone.slice(0, 3)}${'•'.repeat(Math.max(phone.length - 5, 0))}${phone.slice(-2)}`
}

/** The account's factors, the session's assurance level and how many backup codes are left. */
export async function factorOverview(deps: MfaDeps, actor: SessionActor) {
  return {
    aal: actor.aal,
    factors: (await listFactors(deps.db, actor.userId)).map(publicFactor),
    backupCodesRemaining: await backupCodesRemaining(deps.db, actor.userId),
  }
}

/** The factors a pending sign-in can use. */
export async function pendingOverview(deps: MfaDeps, userId: string) {
  return {
    factors: (await verifiedFactors(deps.db, userId)).map(publicFactor),
    backupCodesRemaining: await backupCodesRemaining(deps.db, userId),
  }
}

/** Starts enrolling a factor; it is usable once verified with a code. */
export async function enrollFactor(deps: MfaDeps, actor: SessionActor, body: unknown) {
  const input = EnrollFactorSchema.safeParse(body)
  if (!input.success) throw invalidInput(input.error)
  const hasVerified = (await verifiedFactors(deps.db, actor.userId)).length > 0
  const refused = maySetUpFactor(actor.aal, hasVerified)
  if (refused) throw refused
  // Enrolments never finished within a day are dropped first: the limit counts what remains.
  await dropStaleEnrolments(deps.db, actor.userId, staleEnrolmentCutoff())
  const tooMany = mayAddFactor((await listFactors(deps.db, actor.userId)).length)
  if (tooMany) throw tooMany
  const issuer = await deps.issuer()
  const secret = input.data.type === 'totp' ? generateTotpSecret() : null
  const created = await insertFactor(deps.db, {
    userId: actor.userId,
    type: input.data.type,
    friendlyName: input.data.friendlyName,
    issuer: input.data.type === 'totp' ? issuer : null,
    secret: secret ? await deps.encrypt(secret) : null,
    phone: input.data.type === 'phone' ? input.data.phone : null,
  })
  if (!created) throw nameTaken()
  return {
    ...publicFactor(created),
    totp: secret ? { secret, uri: otpauthUri({ issuer, account: actor.email, secret }) } : null,
  }
}

/** The secret and QR contents of an authenticator app still being set up (never after). */
export async function totpSetup(deps: MfaDeps, actor: SessionActor, factorId: unknown) {
  const id = FactorIdSchema.safeParse(factorId)
  const factor = id.success ? await findOwnFactor(deps.db, actor.userId, id.data) : null
  if (factor?.type !== 'totp' || factor.status !== 'unverified' || !factor.secret) {
    throw factorNotFound()
  }
  const refused = maySetUpFactor(actor.aal, (await verifiedFactors(deps.db, actor.userId)).length > 0)
  if (refused) throw refused
  const secret = await deps.decrypt(factor.secret)
  return {
    secret,
    uri: otpauthUri({ issuer: factor.issuer ?? (await deps.issuer()), account: actor.email, secret }),
  }
}

/** Removes a factor; a verified one needs aal2 and the password again (re-authentication). */
export async function removeOwnFactor(
  deps: MfaDeps,
  actor: SessionActor,
  factorId: unknown,
  password: unknown,
) {
  const id = FactorIdSchema.safeParse(factorId)
  const factor = id.success ? await findOwnFactor(deps.db, actor.userId, id.data) : null
  if (!factor) throw factorNotFound()
  if (factor.status === 'verified') await requireProtectedChange(deps, actor, password)
  await removeFactor(deps.db, actor.userId, factor.id)
  return { removed: factor.id }
}

/** New backup codes (the old ones stop working), shown once. Needs aal2 and the password. */
export async function regenerateBackupCodes(deps: MfaDeps, actor: SessionActor, password: unknown) {
  if ((await verifiedFactors(deps.db, actor.userId)).length === 0) throw notEnabled()
  await requireProtectedChange(deps, actor, password)
  return { backupCodes: await replaceBackupCodes(deps.db, actor.userId) }
}

/** A one-time backup code in place of a factor (lost phone); a session becomes aal2 at once. */
export async function verifyBackupCode(deps: MfaDeps, actor: MfaActor, code: unknown): Promise<void> {
  const input = BackupCodeSchema.safeParse(code)
  if (!input.success) throw invalidInput(input.error, 'code')
  const countedAt = await limitAccount(deps, 'verify', actor.userId)
  if (!(await redeemBackupCode(deps.db, actor.userId, input.data))) {
    await countFailure(deps.db, actor)
    throw invalidCode()
  }
  await releaseVerifyAttempt(deps, actor.userId, countedAt)
  if (actor.kind === 'session') await setSessionAal2(deps.db, actor.sessionToken)
}

/** The one guard of protected changes: aal2, then the password again (or a fresh session without one). */
async function requireProtectedChange(deps: MfaDeps, actor: SessionActor, password: unknown) {
  const refused = mayChangeProtectedSettings(actor.aal)
  if (refused) throw refused
  await reauthenticate(deps.db, { userId: actor.userId, sessionCreatedAt: actor.createdAt, password })
}
