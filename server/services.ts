import { type Auth, createAuth } from '#core/accounts/better-auth/auth.ts'
import type { GoogleConfig } from '#core/accounts/better-auth/google.ts'
import { exportAccountData } from '#core/accounts/data-export.ts'
import { type CatalogService, createCatalogService } from '#core/catalog/catalog-service.ts'
import {
  type ContactForwarding,
  type ContactService,
  createContactService,
} from '#core/contact/contact-service.ts'
import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import { createImportRulesService, type ImportRulesService } from '#core/landed-cost/import-rules-service.ts'
import {
  createPreviewService,
  type PreviewDeps,
  type PreviewService,
} from '#core/link-preview/preview-service.ts'
import { listOutbox } from '#core/notifications/mailer.ts'
import { listSmsOutbox, type SmsSender } from '#core/notifications/sms.ts'
import type { OrderDeps } from '#core/orders/order-context.ts'
import type { PaymentProvider } from '#core/payments/provider.ts'
import { DEFAULT_LANGUAGE, parseLanguage } from '#core/preferences/preferences.ts'
import {
  createShippingRatesService,
  type ShippingRatesService,
} from '#core/pricing/shipping-rates-service.ts'
import { createReviewsService, type ReviewsService } from '#core/reviews/reviews-service.ts'
import { createSettingsService, type SettingsService } from '#core/settings/settings-service.ts'
import type { FileStore } from '#core/uploads/file-store.ts'
import type { Database } from '#db/client.ts'
import { composeCodeSms } from './account-emails.ts'

/** What the accounts services need from the configuration. */
export type AccountsConfig = {
  appUrl: string
  secret: string
  adminEmails: string[]
  google: GoogleConfig | null
  sms: SmsSender
  rateLimitFactor: number
}

/** Which messages wait in the outbox table: those with no provider configured. */
export type OutboxUse = { email: boolean; sms: boolean }

export type Services = {
  auth: Auth
  /** The development outbox (e-mails kept instead of sent). */
  outbox: {
    list(limit?: number): ReturnType<typeof listOutbox>
    listSms(limit?: number): ReturnType<typeof listSmsOutbox>
    /** Whether e-mails (no SMTP_URL) and text messages (no Twilio) wait in it instead of going out. */
    keeps: OutboxUse
  }
  /** "Download my data" for one account. */
  exportAccount(userId: string): ReturnType<typeof exportAccountData>
  catalog: CatalogService
  contact: ContactService
  reviews: ReviewsService
  settings: SettingsService
  shippingRates: ShippingRatesService
  importRules: ImportRulesService
  /** Reading a pasted shop link (issue 31): the item, its price and photo. */
  linkPreview: PreviewService
  /** The order services' dependencies (core/orders/order-context.ts). */
  orders: OrderDeps
  /** Drops every price cache: settings and rate tables (on NOTIFY from any process). */
  pricesChanged(): void
  /** Resolves when the account e-mails queued in the background are written (for shutdown). */
  backgroundSettled(): Promise<void>
}

/**
 * The services requests use, built inside the app's module graph (server/app.ts calls this), so
 * the classes routes check against (errors, above all) are the ones the services throw.
 */
export function createServices({
  db,
  contactForwarding,
  accounts,
  jobs,
  payments = [],
  outbox = { email: true, sms: true },
  files,
  linkPreview = {},
}: {
  db: Database
  contactForwarding: ContactForwarding
  accounts: AccountsConfig
  /** The job queue server/main.ts runs; services only add jobs to it. */
  jobs: AppJobEnqueuer
  /** The payment providers the environment configures (server/main.ts); none: bank transfers only. */
  payments?: readonly PaymentProvider[]
  /** Uploaded files made safe (package photos): core/uploads/file-store.ts. */
  files: FileStore
  /** What the environment leaves in the outbox (server/main.ts); by default both, as `npm start`. */
  outbox?: OutboxUse
  /** Tests only: the shop stand-in every link preview reads (LINK_PREVIEW_STAND_IN), and the log. */
  linkPreview?: Pick<PreviewDeps, 'standIn' | 'log'>
}): Services {
  const settings = createSettingsService({ db })
  const shippingRates = createShippingRatesService({ db })
  const importRules = createImportRulesService({ db })
  const background = new Set<Promise<unknown>>()
  const auth = createAuth({
    db,
    appUrl: accounts.appUrl,
    secret: accounts.secret,
    appName: 'storefront',
    adminEmails: accounts.adminEmails,
    google: accounts.google,
    rateLimitFactor: accounts.rateLimitFactor,
    runInBackground: (task) => {
      const done = () => background.delete(task)
      background.add(task)
      task.then(done, done)
    },
    // Composed and sent by the email.send worker: the answer never waits on SMTP, and a failed
    // send is retried. The job carries what the e-mail shows (the link included), nothing more.
    sendAccountEmail: async (message) => {
      await jobs.enqueue(db, 'email.send', {
        to: message.to,
        language: parseLanguage(message.language) ?? DEFAULT_LANGUAGE,
        template: message.kind,
        variables: { name: message.name, url: message.url },
      })
    },
    mfa: {
      sms: accounts.sms,
      issuer: async () => (await settings.get()).company.name,
      composeSms: async (input) =>
        composeCodeSms({ ...input, siteName: (await settings.get()).company.name }),
    },
  })
  return {
    auth,
    outbox: {
      list: (limit) => listOutbox(db, limit),
      listSms: (limit) => listSmsOutbox(db, limit),
      keeps: outbox,
    },
    exportAccount: (userId) => exportAccountData(db, userId),
    catalog: createCatalogService({ db }),
    contact: createContactService({ db, forwarding: contactForwarding, jobs }),
    reviews: createReviewsService({ db }),
    settings,
    shippingRates,
    importRules,
    linkPreview: createPreviewService({
      db,
      hosts: async () => (await settings.get()).previewHosts,
      ...linkPreview,
    }),
    orders: { jobs, settings, payments, appUrl: accounts.appUrl.replace(/\/+$/, ''), files },
    pricesChanged() {
      shippingRates.invalidate()
      importRules.invalidate()
      settings.invalidate()
    },
    async backgroundSettled() {
      await Promise.allSettled([...background])
    },
  }
}
