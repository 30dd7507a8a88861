import { randomBytes } from 'node:crypto'
import type { BetterAuthPlugin } from 'better-auth'
import {
  createAuthEndpoint,
  createAuthMiddleware,
  getSessionFromCtx,
  isAPIError,
  sessionMiddleware,
} from 'better-auth/api'
import { deleteSessionCookie, expireCookie, setSessionCookie } from 'better-auth/cookies'
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto'
import { z } from 'zod'
import type { SmsSender } from '#core/notifications/sms.ts'
import type { Database } from '#db/client.ts'
import { type MfaActor, type MfaDeps, openChallenge, verifyFactor } from '../mfa/challenges.ts'
import {
  consumePendingSignIn,
  dropExpired,
  findPendingSignIn,
  insertPendingSignIn,
  type PendingSignIn,
  verifiedFactors,
} from '../mfa/factor-store.ts'
import {
  enrollFactor,
  factorOverview,
  pendingOverview,
  publicFactor,
  regenerateBackupCodes,
  removeOwnFactor,
  type SessionActor,
  totpSetup,
  verifyBackupCode,
} from '../mfa/factors.ts'
import { noPendingSignIn } from '../mfa/mfa-failures.ts'
import { MFA_LIMITS } from '../mfa/mfa-limits.ts'
import { type Aal, secondsLeft, sessionAal } from '../mfa/mfa-policy.ts'
import { speakingAuth } from './errors.ts'

export type { Aal } from '../mfa/mfa-policy.ts'

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

const PENDING_COOKIE = 'mfa_pending'

type EndpointContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]
type AfterHook = NonNullable<NonNullable<BetterAuthPlugin['hooks']>['after']>[number]

/** Core's dependencies for this request: storage, the secret box, SMS. */
function depsOf(options: MfaOptions, ctx: EndpointContext): MfaDeps {
  return {
    db: options.db,
    hmacKey: ctx.context.secret,
    encrypt: (data) => symmetricEncrypt({ key: ctx.context.secretConfig, data }),
    decrypt: (data) => symmetricDecrypt({ key: ctx.context.secretConfig, data }),
    sms: options.sms,
    composeSms: options.composeSms,
    issuer: options.issuer,
    rateLimitFactor: options.rateLimitFactor ?? 1,
    logError: (message, error) => ctx.context.logger.error(message, error),
  }
}

/** The signed-in session, as core sees it (endpoints behind `sessionMiddleware`). */
function sessionActor(found: {
  user: { id: string; email: string }
  session: { token: string; createdAt: Date }
}): SessionActor {
  return {
    userId: found.user.id,
    email: found.user.email,
    aal: sessionAal(found.session),
    sessionToken: found.session.token,
    createdAt: found.session.createdAt,
  }
}

/** The pending sign-in named by the request's signed cookie, with that cookie's token. */
async function readPending(
  db: Database,
  ctx: EndpointContext,
): Promise<(PendingSignIn & { cookieToken: string }) | null> {
  const cookie = ctx.context.createAuthCookie(PENDING_COOKIE)
  const token = await ctx.getSignedCookie(cookie.name, ctx.context.secret)
  if (!token) return null
  const pending = await findPendingSignIn(db, token)
  return pending ? { ...pending, cookieToken: token } : null
}

/** The signed-in user, or the user of a pending sign-in; neither is a 401. */
async function resolveActor(
  db: Database,
  ctx: EndpointContext,
): Promise<MfaActor & { user: { id: string }; sessionExpiresAt?: Date }> {
  const found = await getSessionFromCtx(ctx)
  const language = (user: object) => (user as { language?: string }).language ?? 'es'
  if (found) {
    return {
      kind: 'session',
      user: found.user,
      userId: found.user.id,
      language: language(found.user),
      aal: sessionAal(found.session),
      sessionToken: found.session.token,
      sessionExpiresAt: found.session.expiresAt,
    }
  }
  const pending = await readPending(db, ctx)
  const user = pending ? await ctx.context.internalAdapter.findUserById(pending.userId) : null
  if (!pending || !user) throw noPendingSignIn()
  return { kind: 'pending', user, userId: user.id, language: language(user), pending }
}

/** The second factor passed: the pending sign-in is consumed once and the session made at aal2. */
async function completeSignIn(
  db: Database,
  ctx: EndpointContext,
  actor: Extract<MfaActor, { kind: 'pending' }>,
) {
  const consumed = await consumePendingSignIn(db, actor.pending.tokenHash)
  if (!consumed) throw noPendingSignIn()
  const session = await ctx.context.internalAdapter.createSession(actor.userId, consumed.dontRemember, {
    aal: 'aal2',
  })
  const user = await ctx.context.internalAdapter.findUserById(actor.userId)
  if (!user) throw noPendingSignIn()
  await setSessionCookie(ctx, { session, user }, consumed.dontRemember)
  expireCookie(ctx, ctx.context.createAuthCookie(PENDING_COOKIE))
  return ctx.json({ aal: 'aal2' as Aal, expiresIn: secondsLeft(session.expiresAt), user: { id: user.id } })
}

/** The signed-in user's factors: listing them, enrolling one, an authenticator's setup. */
function enrollmentEndpoints(options: MfaOptions) {
  return {
    listMfaFactors: createAuthEndpoint('/mfa/factors', { method: 'GET', use: [sessionMiddleware] }, (ctx) =>
      speakingAuth(async () =>
        ctx.json(await factorOverview(depsOf(options, ctx), sessionActor(ctx.context.session))),
      ),
    ),

    enrollMfaFactor: createAuthEndpoint(
      '/mfa/factors',
      { method: 'POST', body: z.looseObject({}), use: [sessionMiddleware] },
      (ctx) =>
        speakingAuth(async () =>
          ctx.json(await enrollFactor(depsOf(options, ctx), sessionActor(ctx.context.session), ctx.body)),
        ),
    ),

    mfaTotpSetup: createAuthEndpoint(
      '/mfa/factors/:id/totp-setup',
      { method: 'GET', use: [sessionMiddleware] },
      (ctx) =>
        speakingAuth(async () =>
          ctx.json(await totpSetup(depsOf(options, ctx), sessionActor(ctx.context.session), ctx.params.id)),
        ),
    ),
  }
}

/** Proving a second factor, signed in or in a pending sign-in: a challenge, a code, a backup code. */
function verificationEndpoints(options: MfaOptions) {
  const { db } = options
  return {
    challengeMfaFactor: createAuthEndpoint(
      '/mfa/factors/:id/challenge',
      { method: 'POST', body: z.looseObject({}).optional() },
      (ctx) =>
        speakingAuth(async () =>
          ctx.json(await openChallenge(depsOf(options, ctx), await resolveActor(db, ctx), ctx.params.id)),
        ),
    ),

    verifyMfaFactor: createAuthEndpoint(
      '/mfa/factors/:id/verify',
      { method: 'POST', body: z.looseObject({}) },
      (ctx) =>
        speakingAuth(async () => {
          const actor = await resolveActor(db, ctx)
          const { backupCodes } = await verifyFactor(depsOf(options, ctx), actor, ctx.params.id, ctx.body)
          if (actor.kind === 'pending') return completeSignIn(db, ctx, actor)
          const expiresIn = secondsLeft(actor.sessionExpiresAt ?? new Date())
          return ctx.json({ aal: 'aal2' as Aal, expiresIn, backupCodes })
        }),
    ),

    verifyMfaBackupCode: createAuthEndpoint(
      '/mfa/backup-codes/verify',
      { method: 'POST', body: z.looseObject({}) },
      (ctx) =>
        speakingAuth(async () => {
          const actor = await resolveActor(db, ctx)
          await verifyBackupCode(depsOf(options, ctx), actor, ctx.body.code)
          if (actor.kind === 'pending') return completeSignIn(db, ctx, actor)
          return ctx.json({
            aal: 'aal2' as Aal,
            expiresIn: secondsLeft(actor.sessionExpiresAt ?? new Date()),
          })
        }),
    ),
  }
}

/** New backup codes, removing a factor (both behind the password) and the pending sign-in's state. */
function managementEndpoints(options: MfaOptions) {
  return {
    regenerateMfaBackupCodes: createAuthEndpoint(
      '/mfa/backup-codes/regenerate',
      { method: 'POST', body: z.looseObject({}), use: [sessionMiddleware] },
      (ctx) =>
        speakingAuth(async () =>
          ctx.json(
            await regenerateBackupCodes(
              depsOf(options, ctx),
              sessionActor(ctx.context.session),
              ctx.body.password,
            ),
          ),
        ),
    ),

    removeMfaFactor: createAuthEndpoint(
      '/mfa/factors/:id/remove',
      { method: 'POST', body: z.looseObject({}), use: [sessionMiddleware] },
      (ctx) =>
        speakingAuth(async () =>
          ctx.json(
            await removeOwnFactor(
              depsOf(options, ctx),
              sessionActor(ctx.context.session),
              ctx.params.id,
              ctx.body.password,
            ),
          ),
        ),
    ),

    pendingMfaSignIn: createAuthEndpoint('/mfa/pending', { method: 'GET' }, (ctx) =>
      speakingAuth(async () => {
        const pending = await readPending(options.db, ctx)
        if (!pending) throw noPendingSignIn()
        return ctx.json({
          ...(await pendingOverview(depsOf(options, ctx), pending.userId)),
          expiresAt: pending.expiresAt,
        })
      }),
    ),
  }
}

/**
 * The sign-in gate (an after-hook): a session just created for an account with a verified factor
 * is dropped and a pending sign-in kept instead, until the second factor.
 */
function signInGate(options: MfaOptions) {
  const { db } = options
  return {
    // Any request that just created a session (password, Google, verification link…).
    matcher: (ctx) => !ctx.path?.startsWith('/mfa/') && ctx.path !== '/get-session',
    handler: createAuthMiddleware(async (ctx) => {
      const created = ctx.context.newSession
      if (!created) return
      if (sessionAal(created.session) === 'aal2') return
      // A refreshed cookie of an older session is not a sign-in.
      if (Date.now() - new Date(created.session.createdAt).getTime() > 60_000) return
      // Fail closed: when the gate cannot finish (the database went away at this moment: 503),
      // the session cookie the endpoint set does not leave (better-auth's expiry also takes
      // the earlier Set-Cookie out of the answer). Its own redirect to the challenge is no failure.
      try {
        return await speakingAuth(async () => {
          const factors = await verifiedFactors(db, created.user.id)
          if (factors.length === 0) return

          // No session without the second factor: drop it and keep a pending sign-in instead.
          deleteSessionCookie(ctx, true)
          await ctx.context.internalAdapter.deleteSession(created.session.token)
          ctx.context.setNewSession(null)
          const token = randomBytes(32).toString('base64url')
          await insertPendingSignIn(db, {
            token,
            userId: created.user.id,
            dontRemember: (ctx.body as { rememberMe?: unknown } | undefined)?.rememberMe === false,
            expiresAt: new Date(Date.now() + MFA_LIMITS.pendingSignInSeconds * 1000),
          })
          const cookie = ctx.context.createAuthCookie(PENDING_COOKIE, {
            maxAge: MFA_LIMITS.pendingSignInSeconds,
          })
          await ctx.setSignedCookie(cookie.name, token, ctx.context.secret, cookie.attributes)
          // Our own housekeeping, a little at a time: pending sign-ins and challenges past their life.
          if (Math.random() < 0.05) await dropExpired(db)
          const returned = ctx.context.returned
          const wasRedirect = isAPIError(returned) && returned.statusCode >= 300 && returned.statusCode < 400
          if (wasRedirect || ctx.request?.method === 'GET') {
            throw ctx.redirect(new URL(options.challengePath, ctx.context.baseURL).toString())
          }
          return ctx.json({ mfaRequired: true, factors: factors.map(publicFactor) })
        })
      } catch (error) {
        const redirect = isAPIError(error) && error.statusCode >= 300 && error.statusCode < 400
        if (!redirect) deleteSessionCookie(ctx, true)
        throw error
      }
    }),
  } satisfies AfterHook
}

/**
 * Our multi-factor authentication as a better-auth plugin (docs/decisions/008-mfa.md): the HTTP
 * side only. Endpoints read the session or the pending sign-in's cookie, call core/accounts/mfa/
 * (rules, SQL, codes) and answer; the after-hook is the sign-in gate: no session of an account
 * with a verified factor is created without the second factor.
 */
export function mfa(options: MfaOptions) {
  return {
    id: 'mfa',
    endpoints: {
      ...enrollmentEndpoints(options),
      ...verificationEndpoints(options),
      ...managementEndpoints(options),
    },
    hooks: { after: [signInGate(options)] },
  } satisfies BetterAuthPlugin
}
