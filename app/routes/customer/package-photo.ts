import { servePrivateFile } from '#app/lib/private-file.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { guardedFile } from '#app/middleware/guarded-file.server.ts'
import { getPackagePhoto } from '#core/warehouse/stored-items.ts'
import type { Route } from './+types/package-photo.ts'

// A photo staff took of a package at our office (or its thumbnail, `/thumb`), for the package's
// owner and staff only (core/warehouse/stored-items.ts); anyone else gets the 404 of a missing
// photo. Under the customer layout: any signed-in user reaches it, the service decides. Cached by
// the browser only, with an ETag (a photo never changes).

function resource({ request, params, context }: Route.LoaderArgs) {
  const size = new URL(request.url).pathname.endsWith('/thumb') ? 'thumb' : 'full'
  return servePrivateFile(request, context, async () => {
    const orders = getOrderContext(context)
    const photo = await getPackagePhoto(orders, orders.files, params.photoId, size)
    return {
      bytes: photo.bytes,
      etag: `"${photo.sha256}"`,
      contentType: photo.contentType,
      filename: `${photo.packageNumber}-${photo.position}${size === 'thumb' ? '-thumb' : ''}.webp`,
    }
  })
}

// The photo, or for a browser refused by the guard the guard page (app/middleware/guarded-file.server.ts).
export const middleware: Route.MiddlewareFunction[] = [guardedFile(resource)]

export default function PackagePhoto() {
  return null
}
