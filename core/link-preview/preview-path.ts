/**
 * Where this site serves a link preview's photo (server/link-preview-api.ts): the shop's photo,
 * read by the server, so a visitor's browser never loads it from the shop. Null without one.
 */
export function previewImagePath(imageUrl: string | null): string | null {
  return imageUrl ? `/api/v1/link-preview/image?url=${encodeURIComponent(imageUrl)}` : null
}

export { isPreviewable } from './shop-url.ts'
