import type { RouterContextProvider } from 'react-router'
import { requestContext } from '#app/context.ts'
import { translator } from '#app/i18n.server.ts'
import { errorHeaders, toPublicError } from '#app/lib/http-errors.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { getRequestPhoto } from '#core/orders/request-photos.ts'
import { databaseUnavailableError } from '#core/shared/database-errors.ts'
import { isAppError } from '#core/shared/errors.ts'

/**
 * The one way a private file (a customer's photo of an item, a package or a packed box, a
 * transfer receipt) is answered (docs/decisions/020): the stored bytes (our own re-encoding, or a
 * PDF as sent) with their type, `nosniff`, shown inline or downloaded, kept by the browser only
 * (a file never changes: a new one is a new id), and an ETag so a browser that has it gets a 304.
 * Anyone but the owner and staff gets the same 404 as for a missing file; without a session, a
 * 401. The refusals are short translated texts: a file has no page to show them on.
 */

/** Private: browsers only, never a shared cache. The server leaves a route's `private` as it is. */
const PHOTO_CACHE_CONTROL = 'private, max-age=3600'

export type PrivateFile = {
  bytes: Uint8Array
  /** Quoted, as sent in `ETag`. */
  etag: string
  contentType: string
  filename: string
  /** A download (`attachment`) rather than shown in the page. */
  download?: boolean
  headers?: Record<string, string>
}

/** Loads the file with the service (its refusal becomes the short text answer) and answers it. */
export async function servePrivateFile(
  request: Request,
  context: Readonly<RouterContextProvider>,
  load: () => Promise<PrivateFile>,
): Promise<Response> {
  let file: PrivateFile
  try {
    file = await load()
  } catch (error) {
    return photoRefusal(error, context)
  }
  const caching = { ETag: file.etag, 'Cache-Control': PHOTO_CACHE_CONTROL }
  if (matchesEtag(request.headers.get('If-None-Match'), file.etag)) {
    return new Response(null, { status: 304, headers: caching })
  }
  return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      ...caching,
      'Content-Type': file.contentType,
      'Content-Length': String(file.bytes.byteLength),
      'Content-Disposition': `${file.download ? 'attachment' : 'inline'}; filename="${file.filename}"`,
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
      ...file.headers,
    },
  })
}

const EXTENSIONS: Record<string, string> = { 'image/webp': 'webp', 'image/jpeg': 'jpg', 'image/png': 'png' }

/** A photo a customer sent with an item of their request, for its owner and staff. */
export function requestPhotoResponse({
  request,
  params,
  context,
}: {
  request: Request
  params: { id?: string; photoId?: string }
  context: Readonly<RouterContextProvider>
}): Promise<Response> {
  return servePrivateFile(request, context, async () => {
    const photo = await getRequestPhoto(getServiceContext(context), params.id ?? '', params.photoId ?? '')
    return {
      bytes: photo.bytes,
      etag: `"${photo.sha256}"`,
      contentType: photo.contentType,
      filename: `item-${photo.position}.${EXTENSIONS[photo.contentType] ?? 'bin'}`,
    }
  })
}

/** `If-None-Match` lists `etag` (weak or strong), or is `*`. */
function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((value) => {
    const tag = value.trim().replace(/^W\//, '')
    return tag === '*' || tag === etag
  })
}

/** The branch's guard (no session: 401), the service's refusal (404) or an outage (503), as text. */
function photoRefusal(error: unknown, context: Readonly<RouterContextProvider>): Response {
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
