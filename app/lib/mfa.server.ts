import type { RouterContextProvider } from 'react-router'
import { authRequest } from './session.server.ts'

type AuthAnswer = Awaited<ReturnType<typeof authRequest>>
type Context = Readonly<RouterContextProvider>

/** A challenge of one factor (for a phone, the text message goes out now). */
export function challengeFactor(context: Context, request: Request, factorId: string): Promise<AuthAnswer> {
  return authRequest(context, request, 'POST', `/mfa/factors/${encodeURIComponent(factorId)}/challenge`)
}

/**
 * Checks a code against a factor. A phone's code answers the challenge its text message came
 * with; an authenticator app needs no message, so its challenge is made here, just before the check.
 */
export async function verifyFactorCode(
  context: Context,
  request: Request,
  { factorId, code, challengeId }: { factorId: string; code: string; challengeId: string },
): Promise<AuthAnswer> {
  let id = challengeId
  if (!id) {
    const challenge = await challengeFactor(context, request, factorId)
    if (challenge.status !== 200) return challenge
    id = String(challenge.data?.id)
  }
  return authRequest(context, request, 'POST', `/mfa/factors/${encodeURIComponent(factorId)}/verify`, {
    challengeId: id,
    code,
  })
}
