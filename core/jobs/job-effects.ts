import { lt, sql } from 'drizzle-orm'
import type { Database } from '#db/client.ts'
import { jobEffects } from '#db/schema/index.ts'

/** How long a done effect is remembered: far longer than any job retries. */
export const JOB_EFFECTS_KEPT_DAYS = 30

/**
 * Runs `effect` unless an earlier attempt with the same key already completed it, then records
 * the key. Jobs are delivered at least once; this narrows a repeat to a crash between the effect
 * and the record (the effect itself, an SMTP or HTTP call, has no transaction to join).
 * Returns false when the effect had already happened.
 */
export async function runEffectOnce(
  db: Database,
  key: string,
  effect: () => Promise<void>,
): Promise<boolean> {
  const done = await db
    .select({ key: jobEffects.key })
    .from(jobEffects)
    .where(sql`${jobEffects.key} = ${key}`)
  if (done.length > 0) return false
  await effect()
  await db.insert(jobEffects).values({ key }).onConflictDoNothing()
  return true
}

/** Forgets effects older than JOB_EFFECTS_KEPT_DAYS (a daily scheduled job). */
export async function pruneJobEffects(db: Database, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - JOB_EFFECTS_KEPT_DAYS * 24 * 3600 * 1000)
  const deleted = await db
    .delete(jobEffects)
    .where(lt(jobEffects.doneAt, before))
    .returning({ key: jobEffects.key })
  return deleted.length
}
