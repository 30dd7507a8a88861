/**
 * Waits, if needed, until at least `marginSeconds` remain in the current fixed window (windows
 * start at multiples of `windowSeconds` since the epoch, as in core/shared/rate-limit.ts), so the
 * attempts a test counts all land in one window.
 */
export async function awayFromWindowEdge(windowSeconds: number, marginSeconds = 30): Promise<void> {
  const windowMs = windowSeconds * 1000
  const remainingMs = windowMs - (Date.now() % windowMs)
  if (remainingMs < marginSeconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, remainingMs + 50))
  }
}
