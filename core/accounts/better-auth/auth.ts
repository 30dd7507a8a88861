import { type BetterAuthOptions, type BetterAuthPlugin, betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { admin, jwt } from 'better-auth/plugins'
import type { Database } from '#db/client.ts'
import * as schema from '#db/schema/index.ts'
import { limitAccountEmails } from '../account-rate-limits.ts'
import { afterPasswordReset } from '../password-reset.ts'
import { hashPassword, verifyPassword } from '../passwords.ts'
import { withVerificationCallback } from '../verification-link.ts'
import { accountInputLimits } from './account-input.ts'
import { accountRateLimits } from './account-rate-limits.ts'
import { answerTimeFloor } from './answer-time-floor.ts'
import { commonPasswordsPlugin } from './common-passwords.ts'
import { deleteAccountGuard } from './delete-account.ts'
import { answerOutages } from './errors.ts'
import { type GoogleConfig, googleSignIn, googleSocialProviders } from './google.ts'
import { type MfaOptions, mfa } from './mfa-plugin.ts'
import { noTokensInAnswers } from './no-tokens-in-answers.ts'

export { hashPassword, PASSWORD_HASHING, verifyPassword } from '../passwords.ts'

/** better-auth's admin plugin endpoints, none of which the product exposes. */
export const ADMIN_ENDPOINTS = [
  '/admin/ban-user',
  '/admin/create-user',
  '/admin/get-user',
  '/admin/has-permission',
  '/admin/impersonate-user',
  '/admin/list-user-sessions',
  '/admin/list-users',
  '/admin/remove-user',
  '/admin/revoke-user-session',
  '/admin/revoke-user-sessions',
  '/admin/set-role',
  '/admin/set-user-password',
  '/admin/stop-impersonating',
  '/admin/unban-user',
  '/admin/update-user',
]

/** What accounts need from the rest of the server. */
export type AuthOptions = {
  db: Database
  appUrl: string
  secret: string
  appName: string
  /** Sends the verification and password-reset e-mails, in the user's language. */
  sendAccountEmail: (message: {
    kind: 'verify-email' | 'reset-password'
    to: string
    name: string
    url: string
    language: string
  }) => Promise<void>
  /** E-mail addresses that become admins when they sign up. */
  adminEmails: string[]
  /** Google sign-in; its endpoints come from `issuer`'s OpenID discovery (./google.ts). */
  google: GoogleConfig | null
  /**
   * Multi-factor authentication: SMS sending, the authenticator issuer name, the SMS text. Without
   * it (tests of other parts, the schema CLI) authenticator apps work and text messages fail.
   */
  mfa?: Pick<MfaOptions, 'sms' | 'issuer' | 'composeSms'>
  /** Multiplies every auth rate limit (1 in production; the browser tests run many flows from one address). */
  rateLimitFactor?: number
  /**
   * Runs account e-mails after the answer is sent, so an existing account answers as fast as an
   * unknown one. Without it they are awaited. Failures are logged by better-auth.
   */
  runInBackground?: (task: Promise<unknown>) => void
}

type AccountEmailSender = AuthOptions['sendAccountEmail']

/** Sign-in with e-mail and password: hashing, resets, and sign-ups of registered addresses. */
function emailAndPasswordOptions(options: AuthOptions, sendAccountEmail: AccountEmailSender) {
  return {
    enabled: true,
    requireEmailVerification: true,
    minPasswordLength: 8,
    maxPasswordLength: 128,
    revokeSessionsOnPasswordReset: true,
    password: { hash: hashPassword, verify: verifyPassword },
    resetPasswordTokenExpiresIn: 60 * 60,
    // A used link ends the account's other reset links and lifts its sign-in lock.
    onPasswordReset: async ({ user }) => afterPasswordReset(options.db, options.secret, user),
    // Signing up with a registered address answers with a made-up user: it must look exactly
    // like a new one, role included (better-auth leaves fields added by plugins null).
    customSyntheticUser: ({ coreFields, additionalFields, id }) => ({
      ...coreFields,
      role: options.adminEmails.includes(coreFields.email) ? 'admin' : 'user',
      banned: false,
      banReason: null,
      banExpires: null,
      ...additionalFields,
      id,
    }),
    sendResetPassword: async ({ user, url }) => {
      await sendAccountEmail({
        kind: 'reset-password',
        to: user.email,
        name: user.name,
        url,
        language: (user as { language?: string }).language ?? 'es',
      })
    },
  } satisfies BetterAuthOptions['emailAndPassword']
}

/** The verification link: sent on sign-up and on an unverified sign-in, signing in when used. */
function emailVerificationOptions(sendAccountEmail: AccountEmailSender) {
  return {
    sendOnSignUp: true,
    // An unverified account that tries to sign in gets a fresh link.
    sendOnSignIn: true,
    autoSignInAfterVerification: true,
    expiresIn: 60 * 60 * 24,
    sendVerificationEmail: async ({ user, url }) => {
      await sendAccountEmail({
        kind: 'verify-email',
        to: user.email,
        name: user.name,
        url: withVerificationCallback(url),
        language: (user as { language?: string }).language ?? 'es',
      })
    },
  } satisfies BetterAuthOptions['emailVerification']
}

/** better-auth's rate limits, stored in PostgreSQL, per minute and multiplied by `rateLimitFactor`. */
function rateLimitOptions(rateLimitFactor: number) {
  const perMinute = (max: number) => ({ window: 60, max: max * rateLimitFactor })
  return {
    enabled: true,
    storage: 'database',
    // Our own rate_limits table (contact form) has the default name.
    modelName: 'authRateLimit',
    ...perMinute(100),
    customRules: {
      '/sign-in/email': perMinute(5),
      '/sign-up/email': perMinute(5),
      // Reading one's own session (every signed-in page) needs the 190-bit session token: nothing
      // to guess, so no counter row to write per request.
      '/get-session': false,
      // Nor what one reads of one's own account: its sign-in methods (the profile reads them from
      // the database now) and its factors (the security page; enrolling there is bounded by
      // MFA_LIMITS.maxFactors, texting a code by the challenge rule below). Behind one carrier
      // address, shared by thousands in Latin America, customers were refused their own profile
      // after 100 loads a minute between them.
      '/list-accounts': false,
      '/mfa/factors': false,
      // Starting a Google sign-in (better-auth's own default is 3 per 10 s, which the rate-limit factor misses).
      '/sign-in/social': perMinute(10),
      '/request-password-reset': perMinute(3),
      '/send-verification-email': perMinute(3),
      // Code checks and SMS sends.
      '/mfa/factors/*/verify': perMinute(10),
      '/mfa/factors/*/challenge': perMinute(10),
      '/mfa/backup-codes/verify': perMinute(10),
    },
  } satisfies BetterAuthOptions['rateLimit']
}

/** The plugins, in their order: roles, MFA, JWTs, and our own guards. */
function authPlugins(
  options: AuthOptions,
  rateLimitFactor: number,
  accountLimits: Parameters<typeof accountRateLimits>[0],
) {
  return [
    admin({ defaultRole: 'user', adminRoles: ['admin'] }),
    mfa({
      db: options.db,
      ...(options.mfa ?? {
        sms: {
          kind: 'outbox',
          send: async () => {
            throw new Error('No SMS sender configured')
          },
        },
        issuer: async () => options.appName,
        composeSms: async ({ code }) => code,
      }),
      challengePath: '/auth/mfa',
      rateLimitFactor,
    }),
    // A token names its session (sid): /api/v1/me accepts it only while that session lives, so
    // signing out, a password reset or a deleted account ends it at once (role read fresh too).
    jwt({
      // A token is issued on asking (GET /api/auth/token), not signed on every session read (each
      // page load of someone signed in), where it also sat in a header scripts can read.
      disableSettingJwtHeader: true,
      jwt: {
        definePayload: ({ user, session }) => ({ email: user.email, name: user.name, sid: session.id }),
      },
    }),
    commonPasswordsPlugin(),
    googleSignIn(options.google),
    accountRateLimits(accountLimits),
    answerTimeFloor(),
    deleteAccountGuard(options.db),
    accountInputLimits(),
    noTokensInAnswers(),
    // A tuple, as inline in the options: better-auth reads each plugin's fields and endpoints from it.
  ] satisfies [BetterAuthPlugin, ...BetterAuthPlugin[]]
}

/**
 * better-auth, configured to the security baseline (docs/decisions/007-accounts.md):
 * verification required before sign-in, sessions revoked on password reset, rate limits stored in
 * PostgreSQL and keyed on the socket address (the x-client-ip header is overwritten by our server
 * before auth sees it), cookies HttpOnly and SameSite=Lax, Secure on https.
 */
export function createAuth(options: AuthOptions) {
  const secure = options.appUrl.startsWith('https:')
  const rateLimitFactor = options.rateLimitFactor ?? 1
  const accountLimits = { db: options.db, secret: options.secret, rateLimitFactor }
  const sendAccountEmail = limitAccountEmails(accountLimits, options.sendAccountEmail)
  return betterAuth({
    appName: options.appName,
    baseURL: options.appUrl,
    basePath: '/api/auth',
    secret: options.secret,
    telemetry: { enabled: false },
    // Staff actions go through our services and their audit trail (core/accounts/roles.ts), never
    // through better-auth's admin endpoints: the plugin stays for the role and ban fields only.
    disabledPaths: ADMIN_ENDPOINTS,
    database: answerOutages(drizzleAdapter(options.db, { provider: 'pg', schema, usePlural: true })),
    user: {
      // Deleting an account always asks for the password again (or, without one, a fresh session
      // and an explicit confirmation): ./delete-account.ts, ahead of better-auth's own check.
      deleteUser: { enabled: true },
      additionalFields: {
        // The language e-mails and notifications go out in.
        language: { type: 'string', required: false, defaultValue: 'es', input: true },
      },
    },
    emailAndPassword: emailAndPasswordOptions(options, sendAccountEmail),
    emailVerification: emailVerificationOptions(sendAccountEmail),
    socialProviders: googleSocialProviders(options.google),
    account: {
      // A Google sign-in joins the account that has its address only when Google has verified the
      // address and we have too (better-auth's checks, stated here). No provider is trusted by
      // name: that would link on Google's word even for an address it has not verified.
      accountLinking: { enabled: true, trustedProviders: [], requireLocalEmailVerified: true },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      additionalFields: {
        // Authenticator assurance level, set by our MFA plugin. No default on purpose: a session
        // re-created from another (better-auth passes the old one as override) keeps its level.
        aal: { type: 'string', required: false, input: false },
      },
    },
    rateLimit: rateLimitOptions(rateLimitFactor),
    // A failure better-auth cannot send back to a page of ours (a callback without its state)
    // lands on /auth with the reason, not on better-auth's own untranslated page.
    onAPIError: { errorURL: '/auth' },
    advanced: {
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure },
      ipAddress: { ipAddressHeaders: ['x-client-ip'] },
      ...(options.runInBackground ? { backgroundTasks: { handler: options.runInBackground } } : {}),
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            const isAdmin = options.adminEmails.includes(user.email.toLowerCase())
            return { data: isAdmin ? { ...user, role: 'admin' } : user }
          },
        },
      },
    },
    plugins: authPlugins(options, rateLimitFactor, accountLimits),
  })
}

export type Auth = ReturnType<typeof createAuth>
