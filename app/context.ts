import { createContext } from 'react-router'
import type { DocumentAssets } from '#app/components/document-scripts.tsx'
import type { Notice } from '#app/lib/notice.ts'
import type { Auth } from '#core/accounts/better-auth/auth.ts'
import type { CatalogService } from '#core/catalog/catalog-service.ts'
import type { ContactService } from '#core/contact/contact-service.ts'
import type { ImportRulesService } from '#core/landed-cost/import-rules-service.ts'
import type { PreviewService } from '#core/link-preview/preview-service.ts'
import type { OrderDeps } from '#core/orders/order-context.ts'
import type { Consent, Currency, Language } from '#core/preferences/preferences.ts'
import type { ThirdPartyConfig } from '#core/preferences/third-party.ts'
import type { ShippingRatesService } from '#core/pricing/shipping-rates-service.ts'
import type { ReviewsService } from '#core/reviews/reviews-service.ts'
import type { SettingsService } from '#core/settings/settings-service.ts'
import type { Database } from '#core/shared/service-context.ts'
import type { WhatsAppClient } from '#core/whatsapp/client.ts'

type LogFn = (object: object, message?: string) => void

/** What the server hands every loader, action and the renderer for one request. */
export type RequestContext = {
  /** For service functions that take `{ db, actor }` (see app/middleware/auth.server.ts). */
  db: Database
  catalog: CatalogService
  contact: ContactService
  reviews: ReviewsService
  /** The client's IP address, for rate limits. Never taken from a header the client controls. */
  clientIp: string
  settings: SettingsService
  shippingRates: ShippingRatesService
  importRules: ImportRulesService
  /** Reading a pasted shop link (issue 31). */
  linkPreview: PreviewService
  /** What order services need besides `{ db, actor }` (see `getOrderContext`). */
  orders: OrderDeps
  language: Language
  currency: Currency
  /** The CSP nonce of this response. */
  nonce: string
  requestId: string
  /** Public origin of the site, for canonical links. */
  appUrl: string
  thirdParty: ThirdPartyConfig
  /** The visitor's answer about third-party content. */
  consent: Consent
  /** better-auth: sessions, sign-in and the rest of accounts. */
  auth: Auth
  exportAccount(userId: string): Promise<object | null>
  outbox: {
    list(
      limit?: number,
    ): Promise<{ id: string; to: string; subject: string; text: string; createdAt: Date }[]>
    listSms(limit?: number): Promise<{ id: string; to: string; text: string; createdAt: Date }[]>
    /** Whether e-mails and text messages wait in the outbox (no provider configured). */
    keeps: { email: boolean; sms: boolean }
  }
  isProduction: boolean
  /** What document pages need of the build: the stylesheet to inline, the islands' scripts. */
  documentAssets: DocumentAssets
  /** A one-shot notice from the previous request (app/lib/notice.ts). */
  flash: Notice | null
  log: { info: LogFn; warn: LogFn; error: LogFn }
  /** WhatsApp Cloud API when configured (core/whatsapp/); absent or null: the option is hidden. */
  whatsapp?: WhatsAppClient | null
}

export const requestContext = createContext<RequestContext>()
