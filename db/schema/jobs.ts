import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Side effects of background jobs that must not happen twice (an e-mail sent), by key. Jobs are
 * delivered at least once: a job retried after its effect happened finds the key and skips it.
 * The queue itself lives in the `pgboss` schema, which pg-boss owns (db/migrate.ts installs it).
 */
export const jobEffects = pgTable(
  'job_effects',
  {
    key: text().primaryKey(),
    doneAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('job_effects_done_at_idx').on(table.doneAt)],
)
