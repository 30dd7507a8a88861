import { and, eq, gt } from 'drizzle-orm'
import { createLocalJWKSet, type JWK, jwtVerify } from 'jose'
import { toRoleName } from '#core/shared/service-context.ts'
import type { Database } from '#db/client.ts'
import { sessions, users } from '#db/schema/index.ts'

export type BearerResult =
  | { ok: true; claims: Record<string, unknown> }
  | {
      ok: false
      error:
        | 'JWKS is empty'
        | 'No matching signing key found in JWKS'
        | 'Invalid JWT signature'
        | 'Invalid token'
    }

/**
 * Verifies a bearer JWT against our published keys (the same set /.well-known/jwks.json serves).
 * jose's local key set chooses the key: by `kid`, and only one whose `alg`, type and use fit the
 * token's header (a token cannot pick another algorithm for a published key). Then signature,
 * issuer, audience and expiry are checked. The three error texts are the specification's.
 */
export async function verifyBearerToken(
  token: string,
  keys: JWK[],
  expected: { issuer: string; audience: string },
): Promise<BearerResult> {
  if (keys.length === 0) return { ok: false, error: 'JWKS is empty' }
  try {
    const keySet = createLocalJWKSet({ keys })
    const { payload } = await jwtVerify(token, keySet, {
      issuer: expected.issuer,
      audience: expected.audience,
    })
    return { ok: true, claims: payload }
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'ERR_JWKS_NO_MATCHING_KEY')
      return { ok: false, error: 'No matching signing key found in JWKS' }
    if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return { ok: false, error: 'Invalid JWT signature' }
    return { ok: false, error: 'Invalid token' }
  }
}

/**
 * The account behind a verified token, while the session it was issued to lives: a token outlives
 * nothing its session does not (sign-out, password reset, deletion). The role is read now, not
 * from the token, so a role change applies at once.
 */
export async function findBearerAccount(db: Database, claims: Record<string, unknown>) {
  const { sub, sid } = claims
  if (typeof sub !== 'string' || typeof sid !== 'string') return null
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sid), eq(sessions.userId, sub), gt(sessions.expiresAt, new Date())))
  return row ? { ...row, role: toRoleName(row.role) } : null
}
