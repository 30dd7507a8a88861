import { servePrivateFile } from '#app/lib/private-file.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { guardedFile } from '#app/middleware/guarded-file.server.ts'
import { getBoxPhoto } from '#core/shipping/shipment-service.ts'
import type { Route } from './+types/shipment-box-photo.ts'

// The photo staff took of a packed box (or its thumbnail, `/thumb`), for the shipment's owner and
// staff only; anyone else gets the 404 of a missing photo. Cached by the browser only, with an
// ETag (a photo never changes: a new one has a new key).

function resource({ request, params, context }: Route.LoaderArgs) {
  const size = new URL(request.url).pathname.endsWith('/thumb') ? 'thumb' : 'full'
  return servePrivateFile(request, context, async () => {
    const orders = getOrderContext(context)
    const photo = await getBoxPhoto(orders, orders.files, params.id, size)
    return {
      bytes: photo.bytes,
      etag: photo.etag,
      contentType: 'image/webp',
      filename: `${photo.number}-box${size === 'thumb' ? '-thumb' : ''}.webp`,
    }
  })
}

// The photo, or for a browser refused by the guard the guard page (app/middleware/guarded-file.server.ts).
export const middleware: Route.MiddlewareFunction[] = [guardedFile(resource)]

export default function BoxPhoto() {
  return null
}
