import type { RouterContextProvider } from 'react-router'
import { z } from 'zod'
import { callAuth } from './auth-client.server.ts'

// The MFA endpoints (core/accounts/better-auth/mfa-plugin.ts) for our pages: typed answers parsed
// with zod, failures as AppError with a reason (app/lib/auth-client.server.ts), which the routes
// answer with `formFailure` or let through to the one error path (`answeringRouteErrors`).

type Context = Readonly<RouterContextProvider>

const AalSchema = z.enum(['aal1', 'aal2'])

export const PublicFactorSchema = z.object({
  id: z.string(),
  type: z.enum(['totp', 'phone']),
  friendlyName: z.string(),
  status: z.enum(['verified', 'unverified']),
  issuer: z.string().nullable(),
  phone: z.string().nullable(),
  createdAt: z.coerce.date(),
  verifiedAt: z.coerce.date().nullable(),
  lastUsedAt: z.coerce.date().nullable(),
})

export type PublicFactor = z.output<typeof PublicFactorSchema>

const OverviewSchema = z.object({
  aal: AalSchema,
  factors: z.array(PublicFactorSchema),
  backupCodesRemaining: z.number().int(),
})
const PendingSchema = z.object({
  factors: z.array(PublicFactorSchema),
  backupCodesRemaining: z.number().int(),
  expiresAt: z.coerce.date(),
})
const TotpSetupSchema = z.object({ secret: z.string(), uri: z.string() })
const ChallengeSchema = z.object({
  id: z.string(),
  type: z.enum(['totp', 'phone']),
  expiresAt: z.coerce.date(),
})
const VerifiedSchema = z.object({
  aal: AalSchema,
  expiresIn: z.number(),
  backupCodes: z.array(z.string()).nullish(),
})
const BackupCodesSchema = z.object({ backupCodes: z.array(z.string()) })
const RemovedSchema = z.object({ removed: z.string() })

const factorPath = (factorId: string, action: string) =>
  `/mfa/factors/${encodeURIComponent(factorId)}/${action}`

/** An MFA client bound to one request (its cookies, address and origin). */
export function mfaClient(context: Context, request: Request) {
  const get = <T>(path: string, schema: z.ZodType<T>) =>
    callAuth(context, request, { method: 'GET', path }, schema)
  const post = <T>(path: string, body: unknown, schema: z.ZodType<T>) =>
    callAuth(context, request, { method: 'POST', path, body }, schema)

  /** A challenge of one factor (for a phone, the text message goes out now). */
  const challenge = async (factorId: string) =>
    (await post(factorPath(factorId, 'challenge'), {}, ChallengeSchema)).data

  return {
    /** The account's factors, the session's level and the backup codes left. */
    overview: async () => (await get('/mfa/factors', OverviewSchema)).data,
    /** The factors of the sign-in waiting for its second factor. */
    pending: async () => (await get('/mfa/pending', PendingSchema)).data,
    totpSetup: async (factorId: string) =>
      (await get(factorPath(factorId, 'totp-setup'), TotpSetupSchema)).data,
    enroll: async (
      input: { type: 'totp'; friendlyName: string } | { type: 'phone'; friendlyName: string; phone: string },
    ) => (await post('/mfa/factors', input, PublicFactorSchema)).data,
    challenge,
    /**
     * Checks a code against a factor. A phone's code answers the challenge its text message came
     * with; an authenticator app needs no message, so its challenge is made here, just before the check.
     */
    verifyCode: async ({
      factorId,
      code,
      challengeId,
    }: {
      factorId: string
      code: string
      challengeId?: string
    }) => {
      const id = challengeId ?? (await challenge(factorId)).id
      const reply = await post(factorPath(factorId, 'verify'), { challengeId: id, code }, VerifiedSchema)
      return { ...reply.data, backupCodes: reply.data.backupCodes ?? null, setCookies: reply.setCookies }
    },
    verifyBackupCode: async (code: string) => {
      const reply = await post('/mfa/backup-codes/verify', { code }, VerifiedSchema)
      return { ...reply.data, setCookies: reply.setCookies }
    },
    remove: async (factorId: string, password: string | undefined) =>
      (await post(factorPath(factorId, 'remove'), { password }, RemovedSchema)).data,
    regenerateBackupCodes: async (password: string) =>
      (await post('/mfa/backup-codes/regenerate', { password }, BackupCodesSchema)).data.backupCodes,
  }
}
