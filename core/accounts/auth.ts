import { hash, verify } from '@node-rs/argon2'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { admin, jwt, twoFactor } from 'better-auth/plugins'
import type { Database } from '#db/client.ts'
import * as schema from '#db/schema/index.ts'
import { accountRateLimits, limitAccountEmails } from './account-rate-limits.ts'
import { answerTimeFloor } from './answer-time-floor.ts'

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
  google: { clientId: string; clientSecret: string } | null
  /** Multiplies every auth rate limit (1 in production; the browser tests run many flows from one address). */
  rateLimitFactor?: number
  /**
   * Runs account e-mails after the answer is sent, so an existing account answers as fast as an
   * unknown one. Without it they are awaited. Failures are logged by better-auth.
   */
  runInBackground?: (task: Promise<unknown>) => void
}

/**
 * better-auth, configured to the security baseline (docs/decisions/007-accounts.md):
 * verification required before sign-in, sessions revoked on password reset, rate limits stored in
 * PostgreSQL and keyed on the socket address (the x-client-ip header is overwritten by our server
 * before auth sees it), cookies HttpOnly and SameSite=Lax, Secure on https.
 */
export function createAuth(options: AuthOptions) {
  const secure = options.appUrl.startsWith('https:')
  const factor = options.rateLimitFactor ?? 1
  const perMinute = (max: number) => ({ window: 60, max: max * factor })
  const accountLimits = { db: options.db, secret: options.secret, factor }
  const sendAccountEmail = limitAccountEmails(accountLimits, options.sendAccountEmail)
  return betterAuth({
    appName: options.appName,
    baseURL: options.appUrl,
    basePath: '/api/auth',
    secret: options.secret,
    telemetry: { enabled: false },
    database: drizzleAdapter(options.db, { provider: 'pg', schema, usePlural: true }),
    user: {
      // Deleting an account asks for the password again (re-authentication).
      deleteUser: { enabled: true },
      additionalFields: {
        // The language e-mails and notifications go out in.
        language: { type: 'string', required: false, defaultValue: 'es', input: true },
      },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: 60 * 60,
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
    },
    emailVerification: {
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
          url,
          language: (user as { language?: string }).language ?? 'es',
        })
      },
    },
    socialProviders: options.google
      ? { google: { clientId: options.google.clientId, clientSecret: options.google.clientSecret } }
      : {},
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      // Our own rate_limits table (contact form) has the default name.
      modelName: 'authRateLimit',
      ...perMinute(100),
      customRules: {
        '/sign-in/email': perMinute(5),
        '/sign-up/email': perMinute(5),
        '/request-password-reset': perMinute(3),
        '/send-verification-email': perMinute(3),
        '/two-factor/*': perMinute(5),
      },
    },
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
    plugins: [
      admin({ defaultRole: 'user', adminRoles: ['admin'] }),
      twoFactor({ issuer: options.appName }),
      jwt(),
      accountRateLimits(accountLimits),
      answerTimeFloor(),
    ],
  })
}

export type Auth = ReturnType<typeof createAuth>

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
