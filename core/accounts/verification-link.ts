/**
 * Where every verification link ends: the sign-up's link, the fresh one sent when an unverified
 * person tries to sign in (better-auth would send that one to `/`), and a resent one. The
 * `/auth` loader turns it into the "Email Verified!" page, or "Invalid verification link".
 */
export const VERIFICATION_CALLBACK_PATH = '/auth?verified=true'

/** The link better-auth made, ending at VERIFICATION_CALLBACK_PATH whatever callback it was given. */
export function withVerificationCallback(url: string): string {
  const link = new URL(url)
  link.searchParams.set('callbackURL', VERIFICATION_CALLBACK_PATH)
  return link.toString()
}
