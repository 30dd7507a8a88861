import { type CatalogService, createCatalogService } from '#core/catalog/catalog-service.ts'
import {
  type ContactForwarding,
  type ContactService,
  createContactService,
} from '#core/contact/contact-service.ts'
import {
  createShippingRatesService,
  type ShippingRatesService,
} from '#core/pricing/shipping-rates-service.ts'
import { createReviewsService, type ReviewsService } from '#core/reviews/reviews-service.ts'
import { createSettingsService, type SettingsService } from '#core/settings/settings-service.ts'
import type { Database } from '#db/client.ts'

/**
 * The services requests use, built inside the app's module graph (server/app.ts calls this), so
 * the classes routes check against (errors, above all) are the ones the services throw.
 */
export type Services = {
  catalog: CatalogService
  contact: ContactService
  reviews: ReviewsService
  settings: SettingsService
  shippingRates: ShippingRatesService
  /** Drops every price cache: settings and rate tables (on NOTIFY from any process). */
  pricesChanged(): void
}

export function createServices({
  db,
  contactForwarding,
}: {
  db: Database
  contactForwarding: ContactForwarding
}): Services {
  const settings = createSettingsService({ db })
  const shippingRates = createShippingRatesService({ db })
  return {
    catalog: createCatalogService({ db }),
    contact: createContactService({ db, forwarding: contactForwarding }),
    reviews: createReviewsService({ db }),
    settings,
    shippingRates,
    pricesChanged() {
      shippingRates.invalidate()
      settings.invalidate()
    },
  }
}
