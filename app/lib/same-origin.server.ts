import type { RouterContextProvider } from 'react-router'
import { requestContext } from '#app/context.ts'

/**
 * Refuses (403) a state-changing request that does not come from our own origin (APP_URL's):
 * another site, `Origin: null` (sandboxed frames, privacy-stripped posts), the same site on
 * another port or host, or no Origin at all. Browsers send Origin on every form post, so our own
 * forms pass without JavaScript. React Router checks the Origin of page actions itself, but not of
 * resource routes (a module without a component, like /consent and /auth/sign-out): they call this.
 */
export function requireOwnOrigin(context: Readonly<RouterContextProvider>, request: Request): void {
  const { appUrl } = context.get(requestContext)
  if (request.headers.get('origin') !== new URL(appUrl).origin) {
    throw new Response('Cross-origin request refused', {
      status: 403,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    })
  }
}
