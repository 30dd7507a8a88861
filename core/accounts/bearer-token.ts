import { createLocalJWKSet, type JWK, jwtVerify } from 'jose'

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
