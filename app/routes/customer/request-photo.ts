import { requestPhotoResponse } from '#app/lib/request-photo.server.ts'
import type { Route } from './+types/request-photo.ts'

// The photo a customer sent with an item of their request (its owner and staff only): see
// app/lib/request-photo.server.ts. The request page shows it as a thumbnail.

export function loader(args: Route.LoaderArgs) {
  return requestPhotoResponse(args)
}
