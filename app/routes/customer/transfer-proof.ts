import { type PrivateFile, servePrivateFile } from '#app/lib/private-file.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { getTransferProof } from '#core/payments/transfer-notices.ts'
import type { Route } from './+types/transfer-proof.ts'

// The receipt a customer sent with "I have paid" (docs/decisions/036): a photo (our re-encoding)
// or a PDF (as they sent it), for the invoice's customer and staff only; anyone else gets the 404
// of a missing file. A PDF is never shown in our pages' origin: it is a download, and sandboxed
// should a browser open it anyway. Cached by the browser only, with an ETag.

export function loader({ request, params, context }: Route.LoaderArgs) {
  return servePrivateFile(request, context, async (): Promise<PrivateFile> => {
    const orders = getOrderContext(context)
    const proof = await getTransferProof(orders, orders.files, params.id)
    const pdf = proof.contentType === 'application/pdf'
    return {
      bytes: proof.bytes,
      etag: proof.etag,
      contentType: proof.contentType,
      filename: `${proof.invoiceNumber}-transfer.${pdf ? 'pdf' : 'webp'}`,
      download: pdf,
      headers: pdf ? { 'Content-Security-Policy': "sandbox; default-src 'none'" } : {},
    }
  })
}
