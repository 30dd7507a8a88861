import { data, redirect } from 'react-router'
import { requestContext } from '#app/context.ts'
import { CONSENT_COOKIE, parseConsent } from '#core/preferences/preferences.ts'
import type { Route } from './+types/consent.ts'

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60

/**
 * Records the visitor's answer about third-party content (or forgets it, to ask again) and goes
 * back to the page they were on. A plain form post, so it works without JavaScript.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { appUrl } = context.get(requestContext)
  const form = await request.formData().catch(() => null)
  const choice = form?.get('choice')
  const consent = parseConsent(typeof choice === 'string' ? choice : null)
  if (!consent && choice !== 'reset') return data({ error: 'invalid choice' }, { status: 400 })
  const secure = appUrl.startsWith('https:') ? '; Secure' : ''
  const cookie = consent
    ? `${CONSENT_COOKIE}=${consent}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax; HttpOnly${secure}`
    : `${CONSENT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly${secure}`
  return redirect(safeReturnPath(form?.get('returnTo')), { headers: { 'Set-Cookie': cookie } })
}

export function loader() {
  throw data(null, { status: 404 })
}

/** Only a path on this site: never an absolute or protocol-relative address (open redirect). */
function safeReturnPath(value: FormDataEntryValue | null | undefined): string {
  const path = typeof value === 'string' ? value : '/'
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path.slice(0, 500) : '/'
}
