import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import type { SettingsService } from '#core/settings/settings-service.ts'
import type { ServiceContext } from '#core/shared/service-context.ts'

/**
 * What the order services need besides `{ db, actor }`: the job queue (notifications and
 * e-mails are enqueued in the transaction of the change) and the settings in force (fee, tax,
 * days to pay). Built once by server/services.ts; routes take it with `getOrderContext`.
 */
export type OrderDeps = {
  jobs: AppJobEnqueuer
  settings: Pick<SettingsService, 'get'>
}

export type OrderContext = ServiceContext & OrderDeps
