import { data, redirect } from 'react-router'
import { requestContext } from '#app/context.ts'
import { siteCookies } from '#app/lib/cookies.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { requireOwnOrigin } from '#app/lib/same-origin.server.ts'
import { parseConsent } from '#core/preferences/preferences.ts'
import type { Route } from './+types/consent.ts'

/**
 * Records the visitor's answer about third-party content (or forgets it, to ask again) and goes
 * back to the page they were on. A plain form post, so it works without JavaScript.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requireOwnOrigin(context, request)
  const cookies = siteCookies(context.get(requestContext).appUrl)
  const form = await request.formData().catch(() => null)
  const choice = form?.get('choice')
  const consent = parseConsent(typeof choice === 'string' ? choice : null)
  if (!consent && choice !== 'reset') return data({ error: 'invalid choice' }, { status: 400 })
  const cookie = consent ? await cookies.consent.serialize(consent) : await cookies.expire(cookies.consent)
  return redirect(safeRedirect(form?.get('returnTo')), { headers: { 'Set-Cookie': cookie } })
}

export function loader() {
  throw data(null, { status: 404 })
}
