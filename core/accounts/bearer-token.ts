import { decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose'

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
 * Verifies a bearer JWT against our published keys (the same set /.well-known/jwks.json serves):
 * the key is chosen by `kid`, then signature, issuer, audience and expiry are checked.
 * The three error texts are the specification's.
 */
export async function verifyBearerToken(
  token: string,
  keys: JWK[],
  expected: { issuer: string; audience: string },
): Promise<BearerResult> {
  if (keys.length === 0) return { ok: false, error: 'JWKS is empty' }
  let kid: string | undefined
  let alg: string | undefined
  try {
    ;({ kid, alg } = decodeProtectedHeader(token))
  } catch {
    return { ok: false, error: 'Invalid token' }
  }
  const jwk =
    keys.find((key) => key.kid === kid) ?? (kid === undefined && keys.length === 1 ? keys[0] : undefined)
  if (!jwk) return { ok: false, error: 'No matching signing key found in JWKS' }
  try {
    const key = await importJWK(jwk, alg ?? jwk.alg)
    const { payload } = await jwtVerify(token, key, { issuer: expected.issuer, audience: expected.audience })
    return { ok: true, claims: payload }
  } catch (error) {
    const code = (error as { code?: string }).code
    return {
      ok: false,
      error: code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' ? 'Invalid JWT signature' : 'Invalid token',
    }
  }
}
