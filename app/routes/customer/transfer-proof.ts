import { matchesEtag, PHOTO_CACHE_CONTROL, photoRefusal } from '#app/lib/request-photo.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { getTransferProof } from '#core/payments/transfer-notices.ts'
import type { Route } from './+types/transfer-proof.ts'

// The receipt a customer sent with "I have paid" (docs/decisions/036): a photo (our re-encoding)
// or a PDF (as they sent it), for the invoice's customer and staff only; anyone else gets the 404
// of a missing file. A PDF is never shown in our pages' origin: it is a download, and sandboxed
// should a browser open it anyway. Cached by the browser only, with an ETag.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  let proof: Awaited<ReturnType<typeof getTransferProof>>
  try {
    const orders = getOrderContext(context)
    proof = await getTransferProof(orders, orders.files, params.id)
  } catch (error) {
    return photoRefusal(error, context)
  }
  const caching = { ETag: proof.etag, 'Cache-Control': PHOTO_CACHE_CONTROL }
  if (matchesEtag(request.headers.get('If-None-Match'), proof.etag)) {
    return new Response(null, { status: 304, headers: caching })
  }
  const pdf = proof.contentType === 'application/pdf'
  return new Response(proof.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      ...caching,
      'Content-Type': proof.contentType,
      'Content-Length': String(proof.bytes.byteLength),
      'Content-Disposition': `${pdf ? 'attachment' : 'inline'}; filename="${proof.invoiceNumber}-transfer.${pdf ? 'pdf' : 'webp'}"`,
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
      ...(pdf ? { 'Content-Security-Policy': "sandbox; default-src 'none'" } : {}),
    },
  })
}
