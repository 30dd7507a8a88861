import type { RouterContextProvider } from 'react-router'
import { requestContext } from '#app/context.ts'
import { translator } from '#app/i18n.server.ts'
import { errorHeaders, toPublicError } from '#app/lib/http-errors.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { getRequestPhoto } from '#core/orders/request-photos.ts'
import { databaseUnavailableError } from '#core/shared/database-errors.ts'
import { isAppError } from '#core/shared/errors.ts'

/**
 * The answer of a request photo's address, for the customer's and the staff's area alike
 * (docs/decisions/020): the stored bytes (our own re-encoding) to the request's owner or staff,
 * with their type, `nosniff`, shown inline, kept by the browser only (a photo never changes: a
 * new photo is a new id), and an ETag from its SHA-256 so a browser that has it gets a 304.
 * Anyone else gets the same 404 as for a missing photo; without a session, a 401. The refusals
 * are short translated texts: an image has no page to show them on.
 */

/** Private: browsers only, never a shared cache. The server leaves a route's `private` as it is. */
export const PHOTO_CACHE_CONTROL = 'private, max-age=3600'

const EXTENSIONS: Record<string, string> = { 'image/webp': 'webp', 'image/jpeg': 'jpg', 'image/png': 'png' }

export async function requestPhotoResponse({
  request,
  params,
  context,
}: {
  request: Request
  params: { id?: string; photoId?: string }
  context: Readonly<RouterContextProvider>
}): Promise<Response> {
  let photo: Awaited<ReturnType<typeof getRequestPhoto>>
  try {
    photo = await getRequestPhoto(getServiceContext(context), params.id ?? '', params.photoId ?? '')
  } catch (error) {
    return photoRefusal(error, context)
  }
  const etag = `"${photo.sha256}"`
  const caching = { ETag: etag, 'Cache-Control': PHOTO_CACHE_CONTROL }
  if (matchesEtag(request.headers.get('If-None-Match'), etag)) {
    return new Response(null, { status: 304, headers: caching })
  }
  return new Response(photo.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      ...caching,
      'Content-Type': photo.contentType,
      'Content-Length': String(photo.byteSize),
      'Content-Disposition': `inline; filename="item-${photo.position}.${EXTENSIONS[photo.contentType] ?? 'bin'}"`,
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
    },
  })
}

/** `If-None-Match` lists `etag` (weak or strong), or is `*`. */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((value) => {
    const tag = value.trim().replace(/^W\//, '')
    return tag === '*' || tag === etag
  })
}

/** The branch's guard (no session: 401), the service's refusal (404) or an outage (503), as text. */
export function photoRefusal(error: unknown, context: Readonly<RouterContextProvider>): Response {
  const t = translator(context.get(requestContext).language)
  const text = (status: number, message: string, headers: HeadersInit = {}) =>
    new Response(message, {
      status,
      headers: {
        ...headers,
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'private, no-store',
      },
    })
  const guard = guardStatus(error)
  if (guard) return text(guard, t(guard === 401 ? 'errors.codes.unauthorized' : 'errors.codes.forbidden'))
  const failure = databaseUnavailableError(error) ?? error
  if (!isAppError(failure)) throw error
  const { status, messageKey } = toPublicError(failure)
  return text(status, t(messageKey), errorHeaders(failure))
}

/** The status of a guard refusal thrown by `getUser` (react-router's `data(…, { status })`). */
function guardStatus(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null
  const { type, init } = error as { type?: unknown; init?: { status?: number } | null }
  return type === 'DataWithResponseInit' ? (init?.status ?? 400) : null
}
