import { logger } from 'better-auth'
import {
  createAuthorizationURL,
  type OAuth2Tokens,
  type OAuthProvider,
  refreshAccessToken,
  validateAuthorizationCode,
} from 'better-auth/oauth2'
import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from 'jose'
import { z } from 'zod'

/**
 * Google sign-in, against any OpenID Connect issuer (docs/decisions/007-accounts.md).
 *
 * better-auth's built-in google provider has Google's token endpoint and signing-key address in
 * its code (only the authorization endpoint is an option), so it cannot be pointed at another
 * issuer. This provider reads every endpoint from the issuer's discovery document instead:
 * production uses https://accounts.google.com, the tests a local OpenID provider, and both run
 * this same code. It stands in for the built-in one under the same id (`google`), so the
 * callback stays `$APP_URL/api/auth/callback/google`.
 */
/** Google's own issuer, GOOGLE_ISSUER's default (server/env.ts). */
const GOOGLE_ISSUER = 'https://accounts.google.com'

export type GoogleConfig = { clientId: string; clientSecret: string; issuer: string }

/**
 * Our sign-in never posts an ID token from the browser (One Tap), so that door stays shut; and a
 * Google address must be verified before a session starts (the profile check below already
 * refuses unverified ones: this is the second lock).
 */
const PROVIDER_OPTIONS = { disableIdTokenSignIn: true, requireEmailVerification: true } as const

/** The `socialProviders` entry for better-auth's options: it declares Google as configured. */
export function googleSocialProviders(google: { clientId: string; clientSecret: string } | null) {
  return google
    ? { google: { clientId: google.clientId, clientSecret: google.clientSecret, ...PROVIDER_OPTIONS } }
    : {}
}

/**
 * A plugin that puts our provider for `config.issuer` in place of better-auth's built-in one.
 * better-auth builds `socialProviders` from its options (declaring Google configured), then runs
 * plugins' `init`, whose returned `context` it merges: the supported way to change the context.
 */
export function googleSignIn(config: GoogleConfig | null) {
  return {
    id: 'google-oidc',
    init(context: { socialProviders: OAuthProvider[] }) {
      if (!config) return
      return {
        context: {
          socialProviders: context.socialProviders.map((provider) =>
            provider.id === 'google' ? (createGoogleProvider(config) as unknown as OAuthProvider) : provider,
          ),
        },
      }
    },
  }
}

const MetadataSchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
})
type Metadata = z.infer<typeof MetadataSchema>

const GoogleProfileSchema = z.looseObject({
  sub: z.string().min(1),
  email: z.email(),
  // Google sends a boolean; older tokens carried the string.
  email_verified: z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]),
  name: z.string().optional(),
  given_name: z.string().optional(),
  picture: z.string().optional(),
})
export type GoogleProfile = z.infer<typeof GoogleProfileSchema>

/** Profile claims taken from the userinfo endpoint; identity (sub, e-mail) comes only from the signed ID token. */
const USERINFO_PROFILE_CLAIMS = ['name', 'given_name', 'family_name', 'picture', 'locale'] as const
const REQUEST_TIMEOUT_MS = 10_000

export function createGoogleProvider(config: GoogleConfig): OAuthProvider<GoogleProfile> {
  const options = { clientId: config.clientId, clientSecret: config.clientSecret, ...PROVIDER_OPTIONS }
  const discover = discovery(config.issuer)
  // Google's ID tokens name their issuer with or without the scheme (its OpenID Connect guide).
  const issuers = config.issuer === GOOGLE_ISSUER ? [config.issuer, 'accounts.google.com'] : [config.issuer]

  async function verifiedProfile(tokens: OAuth2Tokens & { expectedIdTokenNonce?: string | undefined }) {
    const { metadata, jwks } = await discover()
    if (!tokens.idToken || !tokens.expectedIdTokenNonce)
      throw new Error('no ID token, or no nonce to check it with')
    const { payload } = await jwtVerify(tokens.idToken, jwks, {
      issuer: issuers,
      audience: config.clientId,
      algorithms: ['RS256'],
      maxTokenAge: '1h',
      requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
      clockTolerance: 30,
    })
    // Binds the token to this browser's authorization request (the nonce kept in its OAuth state).
    if (payload.nonce !== tokens.expectedIdTokenNonce) throw new Error('the ID token nonce does not match')
    const extra =
      metadata.userinfo_endpoint && tokens.accessToken
        ? await userInfo(metadata.userinfo_endpoint, tokens.accessToken, String(payload.sub))
        : {}
    const profile = GoogleProfileSchema.parse({ ...extra, ...payload })
    if (!profile.email_verified) throw new Error('the issuer has not verified the e-mail address')
    return profile
  }

  return {
    id: 'google',
    name: 'Google',
    // RFC 9207: a callback that names another issuer is refused (mix-up attacks).
    issuer: config.issuer,
    requiresIdTokenNonce: true,
    accountSubject: ({ profile }) => profile.sub,
    async createAuthorizationURL({ state, codeVerifier, redirectURI, idTokenNonce, loginHint, scopes }) {
      const { metadata } = await discover()
      return createAuthorizationURL({
        id: 'google',
        options,
        authorizationEndpoint: metadata.authorization_endpoint,
        scopes: ['openid', 'email', 'profile', ...(scopes ?? [])],
        state,
        codeVerifier,
        redirectURI,
        nonce: idTokenNonce,
        loginHint,
      })
    },
    async validateAuthorizationCode({ code, codeVerifier, redirectURI }) {
      const { metadata } = await discover()
      return validateAuthorizationCode({
        code,
        codeVerifier,
        redirectURI,
        options,
        tokenEndpoint: metadata.token_endpoint,
      })
    },
    async refreshAccessToken(refreshToken) {
      const { metadata } = await discover()
      return refreshAccessToken({ refreshToken, options, tokenEndpoint: metadata.token_endpoint })
    },
    /**
     * Only a signed, current ID token for our client, issued for this request, with an address
     * the issuer has verified, signs anyone in. Anything else answers null, which better-auth turns
     * into `?error=unable_to_get_user_info` without creating a user.
     */
    async getUserInfo(tokens) {
      const profile = await verifiedProfile(tokens).catch((error: unknown) => {
        logger.warn(`Google sign-in refused: ${error instanceof Error ? error.message : String(error)}`)
        return null
      })
      if (!profile) return null
      return {
        user: {
          name: profile.name || profile.given_name || profile.email.split('@')[0],
          email: profile.email,
          image: profile.picture,
          emailVerified: true,
        },
        data: profile,
      }
    },
    options,
  }
}

/**
 * The issuer's discovery document and signing keys, fetched on first use and kept (a failure is
 * retried on the next sign-in). The document must name the configured issuer (OpenID Connect
 * Discovery 4.3), and its endpoints use the issuer's scheme: https, or http on loopback in tests.
 */
function discovery(issuer: string) {
  let pending: Promise<{ metadata: Metadata; jwks: JWTVerifyGetKey }> | null = null
  const load = async () => {
    const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    if (!response.ok) throw new Error(`OpenID discovery for ${issuer} answered ${response.status}`)
    const metadata = MetadataSchema.parse(await response.json())
    if (metadata.issuer !== issuer)
      throw new Error(`OpenID discovery names ${metadata.issuer}, not ${issuer}`)
    const scheme = new URL(issuer).protocol
    const endpoints = [metadata.authorization_endpoint, metadata.token_endpoint, metadata.jwks_uri]
    if (metadata.userinfo_endpoint) endpoints.push(metadata.userinfo_endpoint)
    if (endpoints.some((endpoint) => new URL(endpoint).protocol !== scheme)) {
      throw new Error(`OpenID discovery for ${issuer} lists an endpoint with another scheme`)
    }
    return { metadata, jwks: createRemoteJWKSet(new URL(metadata.jwks_uri)) }
  }
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = null
      throw error
    })
    return pending
  }
}

/** Profile claims from the userinfo endpoint, which must speak of the ID token's subject (OpenID Connect Core 5.3.2). */
async function userInfo(endpoint: string, accessToken: string, subject: string) {
  const response = await fetch(endpoint, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  })
  if (!response.ok) throw new Error(`the userinfo endpoint answered ${response.status}`)
  const body = (await response.json()) as Record<string, unknown>
  if (body.sub !== subject) throw new Error('the userinfo endpoint speaks of another subject')
  return Object.fromEntries(
    USERINFO_PROFILE_CLAIMS.filter((claim) => typeof body[claim] === 'string').map((claim) => [
      claim,
      body[claim],
    ]),
  )
}
