import { requestPhotoResponse } from '#app/lib/private-file.server.ts'
import { guardedFile } from '#app/middleware/guarded-file.server.ts'
import type { Route } from './+types/request-photo.ts'

// The photo a customer sent with an item of their request (its owner and staff only): see
// app/lib/private-file.server.ts. The request page shows it as a thumbnail.

// The photo, or for a browser refused by the guard the guard page (app/middleware/guarded-file.server.ts).
export const middleware: Route.MiddlewareFunction[] = [guardedFile(requestPhotoResponse)]

export default function RequestPhoto() {
  return null
}
