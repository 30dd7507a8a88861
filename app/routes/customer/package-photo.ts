import { matchesEtag, PHOTO_CACHE_CONTROL, photoRefusal } from '#app/lib/request-photo.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { guardedFile } from '#app/middleware/guarded-file.server.ts'
import { getPackagePhoto } from '#core/warehouse/stored-items.ts'
import type { Route } from './+types/package-photo.ts'

// A photo staff took of a package at our office (or its thumbnail, `/thumb`), for the package's
// owner and staff only (core/warehouse/stored-items.ts); anyone else gets the 404 of a missing
// photo. Under the customer layout: any signed-in user reaches it, the service decides. Cached by
// the browser only, with an ETag (a photo never changes).

async function resource({ request, params, context }: Route.LoaderArgs) {
  const size = new URL(request.url).pathname.endsWith('/thumb') ? 'thumb' : 'full'
  let photo: Awaited<ReturnType<typeof getPackagePhoto>>
  try {
    const orders = getOrderContext(context)
    photo = await getPackagePhoto(orders, orders.files, params.photoId, size)
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
      'Content-Length': String(photo.bytes.byteLength),
      'Content-Disposition': `inline; filename="${photo.packageNumber}-${photo.position}${size === 'thumb' ? '-thumb' : ''}.webp"`,
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
    },
  })
}

// The photo, or for a browser refused by the guard the guard page (app/middleware/guarded-file.server.ts).
export const middleware: Route.MiddlewareFunction[] = [guardedFile(resource)]

export default function PackagePhoto() {
  return null
}
