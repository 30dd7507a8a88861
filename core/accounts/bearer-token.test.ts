import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { expect, test } from 'vitest'
import { verifyBearerToken } from './bearer-token.ts'

const expected = { issuer: 'http://localhost:3000', audience: 'http://localhost:3000' }

async function keyAndToken(kid: string, claims: Record<string, unknown> = { sub: 'user-1' }) {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA' }
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid })
    .setIssuer(expected.issuer)
    .setAudience(expected.audience)
    .setExpirationTime('15m')
    .sign(privateKey)
  return { jwk, token }
}

test('a token signed by a published key is accepted with its claims', async () => {
  const { jwk, token } = await keyAndToken('k1', { sub: 'user-1', email: 'ana@example.com' })
  expect(await verifyBearerToken(token, [jwk], expected)).toMatchObject({
    ok: true,
    claims: { sub: 'user-1', email: 'ana@example.com' },
  })
})

test('each failure names itself', async () => {
  const { jwk, token } = await keyAndToken('k1')
  const other = await keyAndToken('k2')
  expect(await verifyBearerToken(token, [], expected)).toEqual({ ok: false, error: 'JWKS is empty' })
  expect(await verifyBearerToken(token, [other.jwk], expected)).toEqual({
    ok: false,
    error: 'No matching signing key found in JWKS',
  })
  // The right kid, but signed by another key.
  expect(await verifyBearerToken(token, [{ ...other.jwk, kid: 'k1' }], expected)).toEqual({
    ok: false,
    error: 'Invalid JWT signature',
  })
  const [header, payload] = token.split('.')
  const tampered = `${header}.${payload}.${'A'.repeat(86)}`
  expect(await verifyBearerToken(tampered, [jwk], expected)).toEqual({
    ok: false,
    error: 'Invalid JWT signature',
  })
  expect(await verifyBearerToken('not-a-jwt', [jwk], expected)).toEqual({ ok: false, error: 'Invalid token' })
  expect(
    await verifyBearerToken(token, [jwk], { ...expected, audience: 'https://elsewhere.example' }),
  ).toEqual({
    ok: false,
    error: 'Invalid token',
  })
})
