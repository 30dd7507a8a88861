import { index, layout, type RouteConfig, route } from '@react-router/dev/routes'

// Every page of the site. A file not listed here is not a route. Folders mirror URL areas.
export default [
  index('routes/home.tsx'),
  route('services', 'routes/services.tsx'),
  route('calculator', 'routes/calculator.tsx'),
  route('store-guide', 'routes/store-guide.tsx'),
  route('store-logos/:file', 'routes/store-logo.ts'),
  route('contact', 'routes/contact.tsx'),
  // The pages staff write in both languages (ADR 038): one module, the path says which.
  route('prohibited-items', 'routes/site-page.tsx', { id: 'prohibited-items' }),
  route('seller-disclosure', 'routes/site-page.tsx', { id: 'seller-disclosure' }),
  route('consent', 'routes/consent.ts'),
  route('auth', 'routes/auth/index.tsx'),
  route('auth/sign-out', 'routes/auth/sign-out.ts'),
  route('auth/reset-password', 'routes/auth/reset-password.tsx'),
  route('auth/mfa', 'routes/auth/mfa.tsx'),
  route('forgot-password', 'routes/auth/forgot-password.tsx'),
  route('email-verification', 'routes/email-verification.tsx'),
  // Signed-in branches: each layout's middleware decides who may enter (app/middleware/).
  layout('routes/account/layout.tsx', [
    route('dashboard', 'routes/dashboard.tsx'),
    route('account/export', 'routes/account/export.ts'),
    route('account/security', 'routes/account/security.tsx'),
  ]),
  layout('routes/customer/layout.tsx', [
    route('user-dashboard', 'routes/customer/dashboard.tsx'),
    route('user-dashboard/requests', 'routes/customer/requests.tsx'),
    route('user-dashboard/requests/:id', 'routes/customer/request.tsx'),
    route('user-dashboard/requests/:id/photos/:photoId', 'routes/customer/request-photo.ts'),
    route('user-dashboard/profile', 'routes/customer/profile.tsx'),
    route('user-dashboard/profile/addresses/new', 'routes/customer/address-new.tsx'),
    route('user-dashboard/profile/addresses/:id', 'routes/customer/address-edit.tsx'),
    route('user-dashboard/profile/addresses/:id/delete', 'routes/customer/address-delete.tsx'),
    route('user-dashboard/notifications', 'routes/customer/notifications.tsx'),
    route('user-dashboard/notifications/whatsapp', 'routes/customer/whatsapp.tsx'),
    route('user-dashboard/shipping', 'routes/customer/shipping.tsx'),
    // Package photos (owner and staff; the service decides): full size and thumbnail.
    route('user-dashboard/package-photos/:photoId', 'routes/customer/package-photo.ts'),
    route('user-dashboard/package-photos/:photoId/thumb', 'routes/customer/package-photo.ts', {
      id: 'package-photo-thumb',
    }),
    route('user-dashboard/invoices/:id', 'routes/customer/invoice.tsx'),
    // Every payment and refund of the customer's (docs/decisions/034).
    route('user-dashboard/payments', 'routes/customer/payments.tsx'),
    // The customer balance and its statement (docs/decisions/050).
    route('user-dashboard/balance', 'routes/customer/balance.tsx'),
    route('user-dashboard/balance.csv', 'routes/customer/balance-csv.ts'),
    // The receipt of a bank transfer the customer reported (its customer and staff; ADR 036).
    route('user-dashboard/transfer-proofs/:id', 'routes/customer/transfer-proof.ts'),
    route('user-dashboard/credit-notes/:id', 'routes/customer/credit-note.tsx'),
    route('user-dashboard/shipments/:id', 'routes/customer/shipment.tsx'),
    // The packed box's photo (owner and staff): full size and thumbnail.
    route('user-dashboard/shipments/:id/box-photo', 'routes/customer/shipment-box-photo.ts'),
    route('user-dashboard/shipments/:id/box-photo/thumb', 'routes/customer/shipment-box-photo.ts', {
      id: 'shipment-box-photo-thumb',
    }),
    // The conversation of a request or a shipment (ADR 048): its page, where its form posts, and
    // the files sent with its messages (the order's customer and staff; the service decides).
    route('user-dashboard/requests/:id/messages', 'routes/customer/conversation.tsx'),
    route('user-dashboard/shipments/:id/messages', 'routes/customer/conversation.tsx', {
      id: 'customer-shipment-conversation',
    }),
    route('user-dashboard/message-files/:id', 'routes/customer/message-file.ts'),
  ]),
  // The admin-only pages (contact inbox, money, settings, stores, pages): the layout's middleware
  // refuses anyone but an admin. The pages moderators share are under staff-layout.tsx below.
  layout('routes/admin/layout.tsx', [
    route('admin-dashboard/messages', 'routes/admin/messages.tsx'),
    route('admin-dashboard/messages/:id', 'routes/admin/message.tsx'),
    // Money waiting for an admin: held payments, bank transfers customers reported (ADR 036).
    route('admin-dashboard/payments', 'routes/admin/payments.tsx'),
    // Admins only, like the whole branch: the layout's guard runs for every page under it, so no
    // page repeats it (analytics.csv's own middleware, guardedFile, serves the file and words the
    // layout's refusal).
    route('admin-dashboard/settings', 'routes/admin/settings.tsx'),
    route('admin-dashboard/rates', 'routes/admin/rates.tsx'),
    // Import rules per destination and the methods each can use (issue 30).
    route('admin-dashboard/import-rules', 'routes/admin/import-rules.tsx'),
    route('admin-dashboard/import-rules/:country', 'routes/admin/import-rule.tsx'),
    route('admin-dashboard/audit', 'routes/admin/audit.tsx'),
    route('admin-dashboard/outbox', 'routes/admin/outbox.tsx'),
    route('admin-dashboard/analytics', 'routes/admin/analytics.tsx'),
    route('admin-dashboard/analytics.csv', 'routes/admin/analytics-csv.ts'),
    route('admin-dashboard/stores', 'routes/admin/stores.tsx'),
    route('admin-dashboard/stores/new', 'routes/admin/store.tsx', { id: 'admin-store-new' }),
    route('admin-dashboard/stores/:id', 'routes/admin/store.tsx'),
    route('admin-dashboard/pages', 'routes/admin/site-pages.tsx'),
    route('admin-dashboard/pages/:slug', 'routes/admin/site-page.tsx'),
  ]),
  layout('routes/admin/staff-layout.tsx', [
    // The staff's work for today (moderators see what they may act on) and their notifications.
    route('admin-dashboard', 'routes/admin/dashboard.tsx'),
    route('admin-dashboard/notifications', 'routes/admin/notifications.tsx'),
    route('admin-dashboard/requests', 'routes/admin/requests.tsx'),
    route('admin-dashboard/requests/:id', 'routes/admin/request.tsx'),
    route('admin-dashboard/requests/:id/photos/:photoId', 'routes/admin/request-photo.ts'),
    route('admin-dashboard/requests/:id/arrival', 'routes/admin/arrival.tsx'),
    route('admin-dashboard/invoices/:id', 'routes/admin/invoice.tsx'),
    route('admin-dashboard/credit-notes/:id', 'routes/admin/credit-note.tsx'),
    route('admin-dashboard/shipments', 'routes/admin/shipments.tsx'),
    route('admin-dashboard/shipments/:id', 'routes/admin/shipment.tsx'),
    // Its customs declaration to print (issue 30).
    route('admin-dashboard/shipments/:id/declaration', 'routes/admin/shipment-declaration.tsx'),
    route('admin-dashboard/storage', 'routes/admin/storage.tsx'),
    route('admin-dashboard/users', 'routes/admin/users.tsx'),
    route('admin-dashboard/users/:id', 'routes/admin/user.tsx'),
    // Conversations waiting for an answer, and an order's conversation (ADR 048).
    route('admin-dashboard/conversations', 'routes/admin/conversations.tsx'),
    route('admin-dashboard/requests/:id/messages', 'routes/admin/conversation.tsx'),
    route('admin-dashboard/shipments/:id/messages', 'routes/admin/conversation.tsx', {
      id: 'admin-shipment-conversation',
    }),
  ]),
  // Back from a payment provider's page (the webhooks are in server/payment-webhooks.ts).
  route('payments/return/:provider', 'routes/payments/return.tsx'),
  route('payments/cancel/:provider', 'routes/payments/cancel.tsx'),
  route('dev/outbox', 'routes/dev-outbox.tsx'),
  route('robots.txt', 'routes/robots.ts'),
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
