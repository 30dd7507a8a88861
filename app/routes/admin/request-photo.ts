import { requestPhotoResponse } from '#app/lib/private-file.server.ts'
import { guardedFile } from '#app/middleware/guarded-file.server.ts'
import type { Route } from './+types/request-photo.ts'

// A customer's photo of an item, for staff on the admin request page (the same answer as the
// customer's address: app/lib/private-file.server.ts), behind the admin branch's guard.

// The photo, or for a browser refused by the guard the guard page (app/middleware/guarded-file.server.ts).
export const middleware: Route.MiddlewareFunction[] = [guardedFile(requestPhotoResponse)]

export default function RequestPhoto() {
  return null
}
