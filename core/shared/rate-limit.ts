import { and, eq, gt, lt, sql } from 'drizzle-orm'
import type { Database, Executor } from '#db/client.ts'
import { rateLimits } from '#db/schema/index.ts'

export type RateLimitRule = { limit: number; windowSeconds: number }

function windowStartOf(rule: RateLimitRule, now: Date): Date {
  const windowMs = rule.windowSeconds * 1000
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs)
}

/**
 * Counts one use of `key` in the current fixed window and says whether it is within the limit.
 * Atomic in PostgreSQL (one upsert), so it holds across app processes and restarts.
 */
export async function consumeRateLimit(
  db: Executor,
  key: string,
  rule: RateLimitRule,
  now = new Date(),
): Promise<{ allowed: boolean; count: number; retryAfterSeconds: number }> {
  const windowMs = rule.windowSeconds * 1000
  const windowStart = windowStartOf(rule, now)
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count })
  // Windows older than a day serve no limit: clear them now and then, not on every request.
  if (Math.random() < 0.01) {
    await db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - 86_400_000)))
  }
  const count = row?.count ?? 1
  const retryAfterSeconds = Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000)
  return { allowed: count <= rule.limit, count, retryAfterSeconds }
}

/**
 * Gives back one use of `key` in the window of `now` (when it was counted), for an attempt that
 * turned out not to count (a sign-in with the right password). Never goes below zero.
 */
export async function releaseRateLimit(
  db: Database,
  key: string,
  rule: RateLimitRule,
  now = new Date(),
): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(
      and(
        eq(rateLimits.key, key),
        eq(rateLimits.windowStart, windowStartOf(rule, now)),
        gt(rateLimits.count, 0),
      ),
    )
}
