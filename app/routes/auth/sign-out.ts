import { redirect } from 'react-router'
import { postAuth } from '#app/lib/session.server.ts'
import type { Route } from './+types/sign-out.ts'

export async function action({ request, context }: Route.ActionArgs) {
  const result = await postAuth(context, request, '/sign-out', {})
  const headers = new Headers()
  for (const cookie of result.setCookies) headers.append('Set-Cookie', cookie)
  headers.append('Set-Cookie', 'flash=signedOut; Path=/; Max-Age=60; SameSite=Lax; HttpOnly')
  return redirect('/', { headers })
}

export function loader() {
  return redirect('/')
}
