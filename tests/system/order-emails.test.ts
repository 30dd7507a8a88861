import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import en from '#app/locales/en.ts'
import es from '#app/locales/es.ts'
import { formatMoney } from '#core/money/money.ts'
import { approveQuote, saveQuoteDraft } from '#core/orders/quote-service.ts'
import { recordManualPayment } from '#core/payments/staff-payments.ts'
import { DEFAULT_SETTINGS } from '#core/settings/settings-schema.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { purchaseRequests, requestItems } from '#db/schema/index.ts'
import {
  insertPasswordAccount,
  insertSession,
  SESSION_COOKIE,
  signedSessionCookie,
} from '#tests/support/accounts.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { type ReceivedEmail, type SmtpSink, startSmtpSink } from '#tests/support/smtp-sink.ts'
import { type ServerProcess, SYSTEM_TEST_SECRET, startAppOnTestDatabase } from './server-process.ts'

// An order's e-mails from the production server's job worker over SMTP to a real SMTP server on
// loopback: the customer sends a request through the form, staff hear of it (each in their own
// language), then the quote and the payment reach the customer in the customer's language, with
// the amounts written the way that language writes yen and a link to the request's page.

const MAIL_FROM = 'Tienda de prueba <tienda@example.com>'
const LOCALES = { es, en }
const shop = DEFAULT_SETTINGS.company

let server: ServerProcess
let sink: SmtpSink
let database: Awaited<ReturnType<typeof startAppOnTestDatabase>>['database']
let orders: Awaited<ReturnType<typeof createOrderTestDeps>>
let admin: Actor
let moderator: Actor
const STAFF = { admin: 'jefa@example.com', moderator: 'mod@example.com' }

beforeAll(async () => {
  sink = await startSmtpSink()
  ;({ server, database } = await startAppOnTestDatabase({ SMTP_URL: sink.url, MAIL_FROM }))
  orders = await createOrderTestDeps(database.db, database.pool)
  // The admin reads Spanish, the moderator English: each staff e-mail follows its reader.
  const boss = await insertPasswordAccount(database.pool, {
    email: STAFF.admin,
    name: 'Jefa',
    role: 'admin',
    language: 'es',
  })
  const mod = await insertPasswordAccount(database.pool, {
    email: STAFF.moderator,
    name: 'Mod',
    role: 'moderator',
    language: 'en',
  })
  admin = { id: boss.id, role: 'admin' }
  moderator = { id: mod.id, role: 'moderator' }
  return () => sink.close()
})

/**
 * The message to `address` whose subject is `subject`, waiting for it: messages to one address
 * arrive in any order (each is its own job), so the test finds each by what it says.
 */
async function mailWith(address: string, subject: string): Promise<ReceivedEmail> {
  for (let skip = 0; ; skip++) {
    const received = await sink.next(address, { skip })
    if (received.mail.subject === subject) return received
  }
}

/** The subject as the site writes a notification's title, in `lang`, branded with the shop. */
function subject(template: string, values: Record<string, string>) {
  return `${template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? `?${name}`)} · ${shop.name}`
}

const PEOPLE = {
  es: { name: 'Lucía Pérez', email: 'lucia@example.com' },
  en: { name: 'Jane Doe', email: 'jane@example.com' },
} as const

for (const lang of ['es', 'en'] as const) {
  test(`${lang}: a request sent through the form, its quote and its payment reach the customer by e-mail in ${lang}, and staff in theirs`, async () => {
    const person = PEOPLE[lang]
    const t = LOCALES[lang]
    const account = await insertPasswordAccount(database.pool, { ...person, language: lang })
    const token = await insertSession(database.pool, account.id)
    // The page is in the other language: the e-mails follow the account's language, not the page.
    const pageLang = lang === 'es' ? 'en' : 'es'
    const sent = await fetch(`${server.url}/user-dashboard`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: `${SESSION_COOKIE}=${signedSessionCookie(token, SYSTEM_TEST_SECRET)}; lang=${pageLang}`,
        origin: server.url,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        form: 'request',
        'items[0].url': 'https://jp.mercari.com/item/m123456789',
        'items[0].quantity': '2',
        'items[0].notes': 'Talla M',
      }),
    })
    expect(sent.status).toBeLessThan(400)
    const [request] = await database.db
      .select()
      .from(purchaseRequests)
      .where(eq(purchaseRequests.userId, account.id))
    if (!request) throw new Error('the form stored no request')
    const requestUrl = `${server.url}/user-dashboard/requests/${request.id}`

    // The customer: "we received your request".
    const received = await mailWith(
      person.email,
      subject(t.customerNotifications.request_received.title, { number: request.number }),
    )
    expect(received.envelope).toEqual({ from: 'tienda@example.com', to: [person.email] })
    expect(received.mail.text).toContain(t.customerNotifications.request_received.body)
    expect(received.mail.text).toContain(`${t.customerNotifications.button}: ${requestUrl}`)
    expect(received.mail.html).toContain(`<html lang="${lang}">`)

    // Staff: one e-mail each, in their own language, whatever the customer's.
    const staffMail = async (address: string, staffLang: 'es' | 'en') => {
      const texts = LOCALES[staffLang].staffNotifications
      const mail = await mailWith(
        address,
        subject(texts.new_request.title, { number: request.number, customer: person.name }),
      )
      expect(mail.mail.text).toContain(
        `${texts.button}: ${server.url}/admin-dashboard/requests/${request.id}`,
      )
    }
    await staffMail(STAFF.admin, 'es')
    await staffMail(STAFF.moderator, 'en')

    // A moderator prices and approves: the quote, its total in the customer's way of writing yen.
    const [item] = await database.db
      .select({ id: requestItems.id })
      .from(requestItems)
      .where(eq(requestItems.requestId, request.id))
    await saveQuoteDraft(orders.as(moderator), {
      id: request.id,
      version: request.version,
      items: [{ id: item?.id ?? '', title: 'Chaqueta', unitPrice: '4500', domesticShipping: '800' }],
    })
    const approved = await approveQuote(orders.as(moderator), {
      id: request.id,
      version: request.version + 1,
    })
    const [invoice] = (
      await database.pool.query('SELECT total_jpy, version FROM invoices WHERE id = $1', [approved.invoiceId])
    ).rows
    const total = formatMoney(Number(invoice.total_jpy), 'JPY', lang)
    const quote = await mailWith(
      person.email,
      subject(t.customerNotifications.quote_ready.title, { number: request.number, totalJpy: total }),
    )
    expect(quote.mail.text).toContain(`${t.customerNotifications.button}: ${requestUrl}`)
    // Written as the reader writes yen: a dot groups thousands in Spanish, a comma in English.
    expect(total).toMatch(lang === 'es' ? /^\d{1,3}(\.\d{3})+\sJPY$/ : /^JPY\s\d{1,3}(,\d{3})+$/)

    // An admin records the bank transfer: "payment received", in the customer's language.
    await recordManualPayment(orders.as(admin), {
      invoiceId: approved.invoiceId,
      version: invoice.version,
      amountJpy: String(invoice.total_jpy),
      reference: `BANK-${lang}-0001`,
    })
    const paid = await mailWith(
      person.email,
      subject(t.customerNotifications.payment_received.title, {
        number: request.number,
        amountJpy: total,
      }),
    )
    expect(paid.mail.text).toContain(t.customerNotifications.payment_received.body)
    const other = LOCALES[lang === 'es' ? 'en' : 'es'].customerNotifications
    expect(paid.mail.text).not.toContain(other.payment_received.body)
  })
}
