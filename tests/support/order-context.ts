import type pg from 'pg'
import type { OrderContext, OrderDeps } from '#core/orders/order-context.ts'
import type { PaymentProvider } from '#core/payments/provider.ts'
import { createSettingsService } from '#core/settings/settings-service.ts'
import type { Actor } from '#core/shared/service-context.ts'
import type { FileStore } from '#core/uploads/file-store.ts'
import type { Database } from '#db/client.ts'
import { onFileCleanup } from '#tests/db.ts'
import { startTestJobQueue } from '#tests/support/jobs.ts'
import { TEST_APP_URL } from './accounts.ts'
import { createTestFileStore } from './file-store.ts'

/**
 * The order services' dependencies on a test database: the real job queue (jobs are written to
 * pgboss.job in the caller's transaction; this process does not work them, a test runs what it
 * needs), the real settings service, and the payment providers a test gives (none: bank
 * transfers only), and a file store on disk in a temporary directory unless a test gives one.
 * `as(actor)` is the context a service takes.
 */
export async function createOrderTestDeps<Files extends FileStore = ReturnType<typeof createTestFileStore>>(
  db: Database,
  pool: pg.Pool,
  { payments = [], files: store }: { payments?: readonly PaymentProvider[]; files?: Files } = {},
) {
  const jobs = await startTestJobQueue(pool)
  onFileCleanup(() => jobs.stop({ timeoutMs: 1000 }))
  // The whole settings service, so a test can change a setting (the order services only read).
  const settings = createSettingsService({ db })
  const files = (store ?? createTestFileStore()) as Files
  const deps: OrderDeps = { jobs, settings, payments, appUrl: TEST_APP_URL, files }
  return { ...deps, files, settings, as: (actor: Actor | null): OrderContext => ({ db, actor, ...deps }) }
}
