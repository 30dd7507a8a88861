import type { ContactForwarding } from '#core/contact/contact-service.ts'
import { forwardContactMessage } from '#core/contact/contact-service.ts'
import { pruneJobEffects, runEffectOnce } from '#core/jobs/job-effects.ts'
import type { JobHandlers } from '#core/jobs/job-queue.ts'
import type { AppJobs } from '#core/jobs/registry.ts'
import type { Mailer } from '#core/notifications/mailer.ts'
import type { SettingsService } from '#core/settings/settings-service.ts'
import type { Database } from '#db/client.ts'
import { composeAccountEmail } from './account-emails.ts'

/**
 * What each job in core/jobs/registry.ts does. Built by server/main.ts, which runs the queue in
 * every process. Handlers may run more than once for one job (at-least-once delivery), so each
 * is idempotent: the contact message's own status, or a job-effect key.
 */
export function createJobHandlers(deps: {
  db: Database
  mailer: Mailer
  contactForwarding: ContactForwarding
  settings: Pick<SettingsService, 'get'>
}): JobHandlers<AppJobs> {
  const { db } = deps
  return {
    'contact.forward': async ({ messageId }, job) => {
      await forwardContactMessage({ db, forwarding: deps.contactForwarding }, messageId, job)
    },
    'email.send': async (email, job) => {
      const { name, address, email: companyEmail } = (await deps.settings.get()).company
      await runEffectOnce(db, `email.send:${job.id}`, () =>
        deps.mailer.send(composeAccountEmail({ ...email, shop: { name, address, email: companyEmail } })),
      )
    },
    'jobs.prune-effects': async () => {
      await pruneJobEffects(db)
    },
  }
}
