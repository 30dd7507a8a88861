/**
 * Readable text for a messaging link: the handle an Instagram or Facebook address names
 * ("@tienda"), the number a wa.me address names ("+52 1234…" as written), or null when the
 * address names nobody (the seed's placeholders, "https://wa.me/"): the caller then shows the
 * network's name. Never the raw address.
 */
export type MessagingNetwork = 'instagram' | 'facebook' | 'whatsapp'

export function messagingHandle(network: MessagingNetwork, href: string): string | null {
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return null
  }
  const first = url.pathname.split('/').find((segment) => segment !== '')
  if (!first) return null
  const segment = decodeURIComponent(first)
  if (network === 'whatsapp') {
    const digits = segment.replace(/\D/g, '')
    return digits.length >= 6 ? `+${digits}` : null
  }
  // Profile addresses only: "profile.php", "p", "reel"… name no one.
  if (!/^[\w.]{1,64}$/.test(segment) || /^(profile\.php|p|reel|reels|stories|groups|pages)$/.test(segment))
    return null
  return `@${segment}`
}
