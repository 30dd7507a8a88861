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

test('the key is the one the kid names; an unknown kid or a key of another kind matches none', async () => {
  const first = await keyAndToken('k1')
  const second = await keyAndToken('k2')
  // Two published keys: each token is checked with its own.
  expect(await verifyBearerToken(first.token, [second.jwk, first.jwk], expected)).toMatchObject({ ok: true })
  expect(await verifyBearerToken(second.token, [second.jwk, first.jwk], expected)).toMatchObject({ ok: true })
  // A kid that no published key has.
  const unknown = await keyAndToken('k3')
  expect(await verifyBearerToken(unknown.token, [first.jwk, second.jwk], expected)).toEqual({
    ok: false,
    error: 'No matching signing key found in JWKS',
  })
  // The right kid, but the published key is for another algorithm: never used for this token.
  const { publicKey } = await generateKeyPair('ES256')
  const ecKey = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }
  expect(await verifyBearerToken(first.token, [ecKey], expected)).toEqual({
    ok: false,
    error: 'No matching signing key found in JWKS',
  })
  // The right kid, signed by another key of the same kind, among several keys.
  expect(await verifyBearerToken(first.token, [second.jwk, { ...second.jwk, kid: 'k1' }], expected)).toEqual({
    ok: false,
    error: 'Invalid JWT signature',
  })
})

test('a token without kid is checked against the one key that fits; an unsigned token is refused', async () => {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
  const jwk = { ...(await exportJWK(publicKey)), kid: 'only', alg: 'EdDSA' }
  const token = await new SignJWT({ sub: 'user-1' })
    .setProtectedHeader({ alg: 'EdDSA' })
    .setIssuer(expected.issuer)
    .setAudience(expected.audience)
    .setExpirationTime('15m')
    .sign(privateKey)
  expect(await verifyBearerToken(token, [jwk], expected)).toMatchObject({
    ok: true,
    claims: { sub: 'user-1' },
  })
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const unsigned = `${encode({ alg: 'none', kid: 'only' })}.${encode({ sub: 'user-1' })}.`
  expect(await verifyBearerToken(unsigned, [jwk], expected)).toEqual({ ok: false, error: 'Invalid token' })
})
