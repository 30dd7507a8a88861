import { type PrivateFile, servePrivateFile } from '#app/lib/private-file.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { getConversationAttachment } from '#core/conversations/conversation-service.ts'
import type { Route } from './+types/message-file.ts'

// A photo or PDF sent with a message of a request's or shipment's conversation (ADR 048), for
// the order's customer and staff only; anyone else gets the 404 of a missing file. A PDF is a
// download, sandboxed should a browser open it anyway. Cached by the browser only, with an ETag.

export function loader({ request, params, context }: Route.LoaderArgs) {
  return servePrivateFile(request, context, async (): Promise<PrivateFile> => {
    const file = await getConversationAttachment(getOrderContext(context), params.id)
    const pdf = file.contentType === 'application/pdf'
    return {
      bytes: file.bytes,
      etag: file.etag,
      contentType: file.contentType,
      filename: `${file.number}-${file.position}.${pdf ? 'pdf' : 'webp'}`,
      download: pdf,
      headers: pdf ? { 'Content-Security-Policy': "sandbox; default-src 'none'" } : {},
    }
  })
}
