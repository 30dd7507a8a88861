import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import type { PaymentProvider } from '#core/payments/provider.ts'
import type { SettingsService } from '#core/settings/settings-service.ts'
import type { ServiceContext } from '#core/shared/service-context.ts'
import type { FileStore } from '#core/uploads/file-store.ts'

/**
 * What the order services need besides `{ db, actor }`: the job queue (notifications and
 * e-mails are enqueued in the transaction of the change), the settings in force (fee, tax,
 * days to pay), the payment providers the environment configures (none: bank transfers only)
 * and the site's address (the providers' return and cancel URLs). Built once by
 * server/services.ts; routes take it with `getOrderContext`.
 */
export type OrderDeps = {
  jobs: AppJobEnqueuer
  settings: Pick<SettingsService, 'get'>
  /** core/payments/provider.ts `paymentProvidersFromEnv`; empty: the manual method only. */
  payments: readonly PaymentProvider[]
  /** APP_URL, without a trailing slash. */
  appUrl: string
  /** Where package photos are kept (DATA_DIR/uploads by default, core/uploads/file-store.ts). */
  files: FileStore
}

export type OrderContext = ServiceContext & OrderDeps
