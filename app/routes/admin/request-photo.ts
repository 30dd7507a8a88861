import { requestPhotoResponse } from '#app/lib/request-photo.server.ts'
import type { Route } from './+types/request-photo.ts'

// A customer's photo of an item, for staff on the admin request page (the same answer as the
// customer's address: app/lib/request-photo.server.ts), behind the admin branch's guard.

export function loader(args: Route.LoaderArgs) {
  return requestPhotoResponse(args)
}
