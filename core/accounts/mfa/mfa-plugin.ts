import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import type { BetterAuthPlugin } from 'better-auth'
import {
  APIError,
  createAuthEndpoint,
  createAuthMiddleware,
  getSessionFromCtx,
  isAPIError,
  sessionMiddleware,
} from 'better-auth/api'
import { deleteSessionCookie, expireCookie, setSessionCookie } from 'better-auth/cookies'
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto'
import { and, asc, count, eq, gt, isNull, lt, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { SmsSender } from '#core/notifications/sms.ts'
import type { Database } from '#db/client.ts'
import {
  accounts,
  authBackupCodes,
  authFactorChallenges,
  authFactors,
  authPendingSignIns,
  sessions,
} from '#db/schema/index.ts'
import { limitAttempts } from '../account-rate-limits.ts'
import { hashPassword, verifyPassword } from '../passwords.ts'
import { MFA_LIMITS } from './mfa-limits.ts'
import { BackupCodeSchema, EnrollFactorSchema, FactorIdSchema, VerifyFactorSchema } from './mfa-schemas.ts'
import { generateTotpSecret, matchTotp, otpauthUri } from './totp.ts'

export { MFA_LIMITS } from './mfa-limits.ts'

export type MfaOptions = {
  db: Database
  sms: SmsSender
  /** The name authenticator apps show (the company name from settings). */
  issuer: () => Promise<string>
  /** The SMS text carrying a code, in the recipient's language. */
  composeSms: (input: { code: string; language: string; minutes: number }) => Promise<string>
  /** Where a browser goes to enter its second factor. */
  challengePath: string
  /** Multiplies the per-account limits (1 outside the browser tests). */
  rateLimitFactor?: number
}

export type FactorType = 'totp' | 'phone'
export type Aal = 'aal1' | 'aal2'

type Factor = typeof authFactors.$inferSelect

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

const BACKUP_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'
const PENDING_COOKIE = 'mfa_pending'

const fail = (status: ConstructorParameters<typeof APIError>[0], code: string, message: string) =>
  new APIError(status, { code, message })

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

/**
 * Our multi-factor authentication as a better-auth plugin: factors with friendly names (an
 * authenticator app, a phone by SMS), one-time backup codes, TOTP replay refused, and the session's
 * assurance level (`sessions.aal`). No session of an account with a verified factor is created
 * without the second factor: every way in (password, Google, the verification link) ends at a
 * pending sign-in instead.
 */
export function mfa(options: MfaOptions) {
  const { db } = options
  const factor = options.rateLimitFactor ?? 1

  async function verifiedFactors(userId: string) {
    return db
      .select()
      .from(authFactors)
      .where(and(eq(authFactors.userId, userId), eq(authFactors.status, 'verified')))
      .orderBy(asc(authFactors.createdAt))
  }

  async function limitAccount(kind: 'verify' | 'sms', userId: string) {
    const rule =
      kind === 'verify'
        ? {
            limit: MFA_LIMITS.verificationsPerAccount * factor,
            windowSeconds: MFA_LIMITS.accountWindowSeconds,
          }
        : { limit: MFA_LIMITS.smsPerAccountPerHour * factor, windowSeconds: 3600 }
    await limitAttempts(db, `mfa-${kind}:${userId}`, rule, { code: 'MFA_TOO_MANY_ATTEMPTS' })
  }

  /**
   * Setting up a factor (its secret, its SMS, its first code) on an account that already has a
   * verified one takes an aal2 session: an older aal1 session cannot make itself aal2 that way.
   */
  async function assertMaySetUp(userId: string, session: object) {
    if (sessionAal(session) === 'aal2') return
    if ((await verifiedFactors(userId)).length > 0) {
      throw fail('FORBIDDEN', 'MFA_AAL2_REQUIRED', 'Verify a second factor first')
    }
  }

  /** Ten new recovery codes for the user, replacing any old ones; the clear codes are returned once. */
  async function replaceBackupCodes(userId: string) {
    const codes = Array.from({ length: MFA_LIMITS.backupCodes }, () =>
      Array.from({ length: 10 }, () => BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)]).join(''),
    )
    const hashes = await Promise.all(codes.map((code) => hashPassword(code)))
    await db.transaction(async (tx) => {
      await tx.delete(authBackupCodes).where(eq(authBackupCodes.userId, userId))
      await tx.insert(authBackupCodes).values(hashes.map((codeHash) => ({ userId, codeHash })))
    })
    return codes.map((code) => `${code.slice(0, 5)}-${code.slice(5)}`)
  }

  async function backupCodesRemaining(userId: string) {
    const [row] = await db
      .select({ n: count() })
      .from(authBackupCodes)
      .where(and(eq(authBackupCodes.userId, userId), isNull(authBackupCodes.usedAt)))
    return row?.n ?? 0
  }

  return {
    id: 'mfa',
    endpoints: {
      /** The account's factors, the session's assurance level and how many backup codes are left. */
      listMfaFactors: createAuthEndpoint(
        '/mfa/factors',
        { method: 'GET', use: [sessionMiddleware] },
        async (ctx) => {
          const { user, session } = ctx.context.session
          const rows = await db
            .select()
            .from(authFactors)
            .where(eq(authFactors.userId, user.id))
            .orderBy(asc(authFactors.createdAt))
          return ctx.json({
            aal: sessionAal(session),
            factors: rows.map(publicFactor),
            backupCodesRemaining: await backupCodesRemaining(user.id),
          })
        },
      ),

      /** Starts enrolling a factor; it is usable once verified with a code. */
      enrollMfaFactor: createAuthEndpoint(
        '/mfa/factors',
        { method: 'POST', body: z.looseObject({}), use: [sessionMiddleware] },
        async (ctx) => {
          const { user, session } = ctx.context.session
          const input = EnrollFactorSchema.safeParse(ctx.body)
          if (!input.success) throw invalidInput(input.error)
          const existing = await db.select().from(authFactors).where(eq(authFactors.userId, user.id))
          // Adding a factor to an account that has one needs that factor first (Supabase's rule too).
          if (existing.some((row) => row.status === 'verified') && sessionAal(session) !== 'aal2') {
            throw fail('FORBIDDEN', 'MFA_AAL2_REQUIRED', 'Verify a second factor first')
          }
          // Enrolments never finished within a day are dropped, and do not block their name.
          await db
            .delete(authFactors)
            .where(
              and(
                eq(authFactors.userId, user.id),
                eq(authFactors.status, 'unverified'),
                lt(authFactors.createdAt, new Date(Date.now() - 86_400_000)),
              ),
            )
          if (existing.length >= MFA_LIMITS.maxFactors) {
            throw fail('BAD_REQUEST', 'MFA_TOO_MANY_FACTORS', 'Too many factors')
          }
          const issuer = await options.issuer()
          const secret = input.data.type === 'totp' ? generateTotpSecret() : null
          const [created] = await db
            .insert(authFactors)
            .values({
              userId: user.id,
              type: input.data.type,
              friendlyName: input.data.friendlyName,
              issuer: input.data.type === 'totp' ? issuer : null,
              secret: secret ? await symmetricEncrypt({ key: ctx.context.secretConfig, data: secret }) : null,
              phone: input.data.type === 'phone' ? input.data.phone : null,
            })
            .onConflictDoNothing()
            .returning()
          if (!created) throw fail('CONFLICT', 'MFA_NAME_TAKEN', 'A factor with that name exists')
          return ctx.json({
            ...publicFactor(created),
            totp: secret ? { secret, uri: otpauthUri({ issuer, account: user.email, secret }) } : null,
          })
        },
      ),

      /** The secret and QR contents of an authenticator app still being set up (never after). */
      mfaTotpSetup: createAuthEndpoint(
        '/mfa/factors/:id/totp-setup',
        { method: 'GET', use: [sessionMiddleware] },
        async (ctx) => {
          const { user, session } = ctx.context.session
          const row = await ownFactor(db, user.id, ctx.params.id)
          if (row.type !== 'totp' || row.status !== 'unverified' || !row.secret) {
            throw fail('NOT_FOUND', 'MFA_FACTOR_NOT_FOUND', 'No authenticator being set up')
          }
          await assertMaySetUp(user.id, session)
          const secret = await symmetricDecrypt({ key: ctx.context.secretConfig, data: row.secret })
          return ctx.json({
            secret,
            uri: otpauthUri({ issuer: row.issuer ?? (await options.issuer()), account: user.email, secret }),
          })
        },
      ),

      /** A challenge of one factor; for a phone, the SMS with a code goes out now. */
      challengeMfaFactor: createAuthEndpoint(
        '/mfa/factors/:id/challenge',
        { method: 'POST', body: z.looseObject({}).optional() },
        async (ctx) => {
          const actor = await resolveActor(ctx)
          const row = await ownFactor(db, actor.user.id, ctx.params.id)
          if (actor.kind === 'pending' && row.status !== 'verified') {
            throw fail('NOT_FOUND', 'MFA_FACTOR_NOT_FOUND', 'No such factor')
          }
          if (actor.kind === 'session' && row.status !== 'verified')
            await assertMaySetUp(actor.user.id, actor.session)
          let codeHash: string | null = null
          const id = crypto.randomUUID()
          if (row.type === 'phone' && row.phone) {
            await limitAccount('sms', actor.user.id)
            const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
            codeHash = hmacCode(ctx.context.secret, id, code)
            const text = await options.composeSms({
              code,
              language: (actor.user as { language?: string }).language ?? 'es',
              minutes: MFA_LIMITS.smsCodeSeconds / 60,
            })
            await options.sms.send({ to: row.phone, text }).catch((error: unknown) => {
              ctx.context.logger.error('SMS delivery failed', error)
              throw fail('BAD_GATEWAY', 'MFA_SMS_FAILED', 'The text message could not be sent')
            })
          }
          const expiresAt = new Date(Date.now() + MFA_LIMITS.smsCodeSeconds * 1000)
          await db.insert(authFactorChallenges).values({ id, factorId: row.id, codeHash, expiresAt })
          return ctx.json({ id, type: row.type, expiresAt })
        },
      ),

      /**
       * Verifies a code for a challenge. Signing in: the session is created now, at aal2. Signed
       * in: the factor becomes verified (the first one also gets backup codes) and the session aal2.
       */
      verifyMfaFactor: createAuthEndpoint(
        '/mfa/factors/:id/verify',
        { method: 'POST', body: z.looseObject({}) },
        async (ctx) => {
          const actor = await resolveActor(ctx)
          const input = VerifyFactorSchema.safeParse(ctx.body)
          if (!input.success) throw invalidInput(input.error)
          const row = await ownFactor(db, actor.user.id, ctx.params.id)
          if (actor.kind === 'pending' && row.status !== 'verified') {
            throw fail('NOT_FOUND', 'MFA_FACTOR_NOT_FOUND', 'No such factor')
          }
          if (actor.kind === 'session' && row.status !== 'verified')
            await assertMaySetUp(actor.user.id, actor.session)
          await limitAccount('verify', actor.user.id)
          const ok = await checkFactorCode(ctx.context.secret, ctx.context.secretConfig, row, input.data)
          if (!ok) {
            await recordFailure(actor)
            throw fail('UNAUTHORIZED', 'MFA_INVALID_CODE', 'Invalid code')
          }
          await db.update(authFactors).set({ lastUsedAt: new Date() }).where(eq(authFactors.id, row.id))
          if (actor.kind === 'pending') return completeSignIn(ctx, actor)

          let backupCodes: string[] | null = null
          if (row.status !== 'verified') {
            const hadVerified = (await verifiedFactors(actor.user.id)).length > 0
            await db
              .update(authFactors)
              .set({ status: 'verified', verifiedAt: new Date() })
              .where(eq(authFactors.id, row.id))
            if (!hadVerified) backupCodes = await replaceBackupCodes(actor.user.id)
          }
          await db.update(sessions).set({ aal: 'aal2' }).where(eq(sessions.token, actor.session.token))
          return ctx.json({
            aal: 'aal2' as Aal,
            expiresIn: secondsLeft(actor.session.expiresAt),
            backupCodes,
          })
        },
      ),

      /** A one-time backup code in place of a factor (lost phone). */
      verifyMfaBackupCode: createAuthEndpoint(
        '/mfa/backup-codes/verify',
        { method: 'POST', body: z.looseObject({}) },
        async (ctx) => {
          const actor = await resolveActor(ctx)
          const input = BackupCodeSchema.safeParse(ctx.body.code)
          if (!input.success) throw invalidInput(input.error)
          await limitAccount('verify', actor.user.id)
          const unused = await db
            .select()
            .from(authBackupCodes)
            .where(and(eq(authBackupCodes.userId, actor.user.id), isNull(authBackupCodes.usedAt)))
          const matches = await Promise.all(
            unused.map((code) => verifyPassword({ hash: code.codeHash, password: input.data })),
          )
          const match = unused[matches.indexOf(true)]
          // Single use even under concurrent requests: only one update finds it unused.
          const consumed = match
            ? await db
                .update(authBackupCodes)
                .set({ usedAt: new Date() })
                .where(and(eq(authBackupCodes.id, match.id), isNull(authBackupCodes.usedAt)))
                .returning({ id: authBackupCodes.id })
            : []
          if (consumed.length === 0) {
            await recordFailure(actor)
            throw fail('UNAUTHORIZED', 'MFA_INVALID_CODE', 'Invalid code')
          }
          if (actor.kind === 'pending') return completeSignIn(ctx, actor)
          await db.update(sessions).set({ aal: 'aal2' }).where(eq(sessions.token, actor.session.token))
          return ctx.json({ aal: 'aal2' as Aal, expiresIn: secondsLeft(actor.session.expiresAt) })
        },
      ),

      /** New backup codes (the old ones stop working), shown once. Needs aal2 and the password. */
      regenerateMfaBackupCodes: createAuthEndpoint(
        '/mfa/backup-codes/regenerate',
        { method: 'POST', body: z.looseObject({}), use: [sessionMiddleware] },
        async (ctx) => {
          const { user, session } = ctx.context.session
          if ((await verifiedFactors(user.id)).length === 0) {
            throw fail('BAD_REQUEST', 'MFA_NOT_ENABLED', 'No second factor')
          }
          if (sessionAal(session) !== 'aal2') throw fail('FORBIDDEN', 'MFA_AAL2_REQUIRED', 'aal2 required')
          await reauthenticate(user.id, session, ctx.body.password)
          return ctx.json({ backupCodes: await replaceBackupCodes(user.id) })
        },
      ),

      /** Removes a factor; a verified one needs aal2 and the password again (re-authentication). */
      removeMfaFactor: createAuthEndpoint(
        '/mfa/factors/:id/remove',
        { method: 'POST', body: z.looseObject({}), use: [sessionMiddleware] },
        async (ctx) => {
          const { user, session } = ctx.context.session
          const row = await ownFactor(db, user.id, ctx.params.id)
          if (row.status === 'verified') {
            if (sessionAal(session) !== 'aal2') throw fail('FORBIDDEN', 'MFA_AAL2_REQUIRED', 'aal2 required')
            await reauthenticate(user.id, session, ctx.body.password)
          }
          await db.transaction(async (tx) => {
            await tx.delete(authFactors).where(eq(authFactors.id, row.id))
            const [left] = await tx
              .select({ n: count() })
              .from(authFactors)
              .where(and(eq(authFactors.userId, user.id), eq(authFactors.status, 'verified')))
            // Without a factor, backup codes would be a second factor of nothing.
            if ((left?.n ?? 0) === 0)
              await tx.delete(authBackupCodes).where(eq(authBackupCodes.userId, user.id))
          })
          return ctx.json({ removed: row.id })
        },
      ),

      /** The factors a pending sign-in can use (the page that asks for the code reads this). */
      pendingMfaSignIn: createAuthEndpoint('/mfa/pending', { method: 'GET' }, async (ctx) => {
        const pending = await readPending(ctx)
        if (!pending) throw fail('UNAUTHORIZED', 'MFA_NO_PENDING_SIGN_IN', 'No sign-in waits for a code')
        const factors = await verifiedFactors(pending.userId)
        return ctx.json({
          factors: factors.map(publicFactor),
          backupCodesRemaining: await backupCodesRemaining(pending.userId),
          expiresAt: pending.expiresAt,
        })
      }),
    },

    hooks: {
      after: [
        {
          // Any request that just created a session (password, Google, verification link…).
          matcher: (ctx) => !ctx.path?.startsWith('/mfa/') && ctx.path !== '/get-session',
          handler: createAuthMiddleware(async (ctx) => {
            const created = ctx.context.newSession
            if (!created) return
            if (sessionAal(created.session) === 'aal2') return
            // A refreshed cookie of an older session is not a sign-in.
            if (Date.now() - new Date(created.session.createdAt).getTime() > 60_000) return
            const factors = await verifiedFactors(created.user.id)
            if (factors.length === 0) return

            // No session without the second factor: drop it and keep a pending sign-in instead.
            deleteSessionCookie(ctx, true)
            await ctx.context.internalAdapter.deleteSession(created.session.token)
            ctx.context.setNewSession(null)
            const token = randomBytes(32).toString('base64url')
            const expiresAt = new Date(Date.now() + MFA_LIMITS.pendingSignInSeconds * 1000)
            await db.insert(authPendingSignIns).values({
              tokenHash: sha256(token),
              userId: created.user.id,
              dontRemember: (ctx.body as { rememberMe?: unknown } | undefined)?.rememberMe === false,
              expiresAt,
            })
            const cookie = ctx.context.createAuthCookie(PENDING_COOKIE, {
              maxAge: MFA_LIMITS.pendingSignInSeconds,
            })
            await ctx.setSignedCookie(cookie.name, token, ctx.context.secret, cookie.attributes)
            // Our own housekeeping, a little at a time: pending sign-ins and challenges past their life.
            if (Math.random() < 0.05) {
              await db.delete(authPendingSignIns).where(lt(authPendingSignIns.expiresAt, new Date()))
              await db.delete(authFactorChallenges).where(lt(authFactorChallenges.expiresAt, new Date()))
            }
            const returned = ctx.context.returned
            const wasRedirect =
              isAPIError(returned) && returned.statusCode >= 300 && returned.statusCode < 400
            if (wasRedirect || ctx.request?.method === 'GET') {
              throw ctx.redirect(new URL(options.challengePath, ctx.context.baseURL).toString())
            }
            return ctx.json({ mfaRequired: true, factors: factors.map(publicFactor) })
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin

  type EndpointContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]
  type Pending = typeof authPendingSignIns.$inferSelect
  type Actor =
    | {
        kind: 'session'
        user: { id: string; email: string }
        session: { token: string; expiresAt: Date; aal?: unknown }
      }
    | { kind: 'pending'; user: { id: string; email: string }; pending: Pending; cookieToken: string }

  async function readPending(ctx: EndpointContext): Promise<(Pending & { cookieToken: string }) | null> {
    const cookie = ctx.context.createAuthCookie(PENDING_COOKIE)
    const token = await ctx.getSignedCookie(cookie.name, ctx.context.secret)
    if (!token) return null
    const [pending] = await db
      .select()
      .from(authPendingSignIns)
      .where(
        and(eq(authPendingSignIns.tokenHash, sha256(token)), gt(authPendingSignIns.expiresAt, new Date())),
      )
    return pending ? { ...pending, cookieToken: token } : null
  }

  /** The signed-in user, or the user of a pending sign-in; neither is a 401. */
  async function resolveActor(ctx: EndpointContext): Promise<Actor> {
    const session = await getSessionFromCtx(ctx)
    if (session) return { kind: 'session', user: session.user, session: session.session }
    const pending = await readPending(ctx)
    if (!pending) throw fail('UNAUTHORIZED', 'MFA_NO_PENDING_SIGN_IN', 'Sign in first')
    const user = await ctx.context.internalAdapter.findUserById(pending.userId)
    if (!user) throw fail('UNAUTHORIZED', 'MFA_NO_PENDING_SIGN_IN', 'Sign in first')
    return { kind: 'pending', user, pending, cookieToken: pending.cookieToken }
  }

  /** A wrong code: a pending sign-in has five tries, then starts again from the password. */
  async function recordFailure(actor: Actor) {
    if (actor.kind !== 'pending') return
    const [row] = await db
      .update(authPendingSignIns)
      .set({ failedAttempts: sql`${authPendingSignIns.failedAttempts} + 1` })
      .where(eq(authPendingSignIns.tokenHash, actor.pending.tokenHash))
      .returning({ failedAttempts: authPendingSignIns.failedAttempts })
    if ((row?.failedAttempts ?? 0) >= MFA_LIMITS.attemptsPerSignIn) {
      await db.delete(authPendingSignIns).where(eq(authPendingSignIns.tokenHash, actor.pending.tokenHash))
      throw fail('UNAUTHORIZED', 'MFA_SIGN_IN_EXPIRED', 'Too many wrong codes: sign in again')
    }
  }

  /** The second factor passed: the pending sign-in is consumed once and the session made at aal2. */
  async function completeSignIn(ctx: EndpointContext, actor: Extract<Actor, { kind: 'pending' }>) {
    const consumed = await db
      .delete(authPendingSignIns)
      .where(eq(authPendingSignIns.tokenHash, actor.pending.tokenHash))
      .returning({ dontRemember: authPendingSignIns.dontRemember })
    if (consumed.length === 0) throw fail('UNAUTHORIZED', 'MFA_NO_PENDING_SIGN_IN', 'Sign in first')
    const dontRemember = consumed[0]?.dontRemember ?? false
    const session = await ctx.context.internalAdapter.createSession(actor.user.id, dontRemember, {
      aal: 'aal2',
    })
    const user = await ctx.context.internalAdapter.findUserById(actor.user.id)
    if (!user) throw fail('UNAUTHORIZED', 'MFA_NO_PENDING_SIGN_IN', 'Sign in first')
    await setSessionCookie(ctx, { session, user }, dontRemember)
    expireCookie(ctx, ctx.context.createAuthCookie(PENDING_COOKIE))
    return ctx.json({ aal: 'aal2' as Aal, expiresIn: secondsLeft(session.expiresAt), user: { id: user.id } })
  }

  /** The password again, or for accounts without one (Google) a session signed in just now. */
  async function reauthenticate(userId: string, session: { createdAt: Date }, password: unknown) {
    const [credential] = await db
      .select({ hash: accounts.password })
      .from(accounts)
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
    if (credential?.hash) {
      const given = typeof password === 'string' ? password.slice(0, 200) : ''
      if (!given || !(await verifyPassword({ hash: credential.hash, password: given }))) {
        throw fail('BAD_REQUEST', 'INVALID_PASSWORD', 'Invalid password')
      }
      return
    }
    if (Date.now() - new Date(session.createdAt).getTime() > MFA_LIMITS.freshSessionSeconds * 1000) {
      throw fail('FORBIDDEN', 'MFA_REAUTH_REQUIRED', 'Sign in again first')
    }
  }

  /** Checks a code against a factor's challenge; each challenge and each TOTP step works once. */
  async function checkFactorCode(
    secret: string,
    secretConfig: Parameters<typeof symmetricDecrypt>[0]['key'],
    row: Factor,
    input: { challengeId: string; code: string },
  ): Promise<boolean> {
    const [challenge] = await db
      .select()
      .from(authFactorChallenges)
      .where(
        and(
          eq(authFactorChallenges.id, input.challengeId),
          eq(authFactorChallenges.factorId, row.id),
          isNull(authFactorChallenges.verifiedAt),
          gt(authFactorChallenges.expiresAt, new Date()),
        ),
      )
    if (!challenge) throw fail('BAD_REQUEST', 'MFA_CHALLENGE_EXPIRED', 'The code has expired')
    if (challenge.failedAttempts >= MFA_LIMITS.attemptsPerSignIn) {
      throw fail('BAD_REQUEST', 'MFA_CHALLENGE_EXPIRED', 'Too many wrong codes: ask for a new one')
    }
    let ok = false
    if (row.type === 'totp' && row.secret) {
      const step = matchTotp(await symmetricDecrypt({ key: secretConfig, data: row.secret }), input.code)
      if (step !== null) {
        // Only a step newer than the last accepted one passes: a code never works twice.
        const advanced = await db
          .update(authFactors)
          .set({ lastUsedStep: step })
          .where(
            and(
              eq(authFactors.id, row.id),
              sql`(${authFactors.lastUsedStep} is null or ${authFactors.lastUsedStep} < ${step})`,
            ),
          )
          .returning({ id: authFactors.id })
        ok = advanced.length > 0
      }
    } else if (challenge.codeHash) {
      const expected = Buffer.from(challenge.codeHash, 'hex')
      const given = Buffer.from(hmacCode(secret, challenge.id, input.code), 'hex')
      ok = expected.length === given.length && timingSafeEqual(expected, given)
    }
    if (ok) {
      const used = await db
        .update(authFactorChallenges)
        .set({ verifiedAt: new Date() })
        .where(and(eq(authFactorChallenges.id, challenge.id), isNull(authFactorChallenges.verifiedAt)))
        .returning({ id: authFactorChallenges.id })
      return used.length > 0
    }
    await db
      .update(authFactorChallenges)
      .set({ failedAttempts: sql`${authFactorChallenges.failedAttempts} + 1` })
      .where(eq(authFactorChallenges.id, challenge.id))
    return false
  }
}

export function sessionAal(session: object): Aal {
  return (session as { aal?: unknown }).aal === 'aal2' ? 'aal2' : 'aal1'
}

function secondsLeft(expiresAt: Date) {
  return Math.max(0, Math.floor((new Date(expiresAt).getTime() - Date.now()) / 1000))
}

function hmacCode(secret: string, challengeId: string, code: string) {
  return createHmac('sha256', secret).update(`${challengeId}:${code}`).digest('hex')
}

async function ownFactor(db: Database, userId: string, id: string | undefined) {
  const parsed = FactorIdSchema.safeParse(id)
  const [row] = parsed.success
    ? await db
        .select()
        .from(authFactors)
        .where(and(eq(authFactors.id, parsed.data), eq(authFactors.userId, userId)))
    : []
  if (!row) throw fail('NOT_FOUND', 'MFA_FACTOR_NOT_FOUND', 'No such factor')
  return row
}

/** Bad input: 400 with the first problem's i18n key (under `mfa.errors`) as the message. */
function invalidInput(error: z.ZodError) {
  const issue = error.issues[0]
  return new APIError('BAD_REQUEST', {
    code: 'MFA_INVALID_INPUT',
    message: issue?.message ?? 'invalid',
    field: issue?.path.join('.') ?? null,
  })
}
