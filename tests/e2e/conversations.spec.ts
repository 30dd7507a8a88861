import type { BrowserContext } from '@playwright/test'
import pg from 'pg'
import enLocale from '../../app/locales/en.ts'
import esLocale from '../../app/locales/es.ts'
import { e2eDataDir } from '../../playwright.config.ts'
import { runningEmbeddedUrl } from '../../server/embedded-postgres.ts'
import { plainPng } from '../support/photo-fixtures.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { emailCount, insertSignedInAccount, latestEmail } from './outbox.ts'
import { insertQuote } from './payments.ts'

// The conversation of a request, in both languages (issue 34, docs/decisions/048): the customer
// asks a question with a photo on their request page; staff find it in their work for today and
// the list of conversations waiting, take it and answer twice from the request's page; the
// customer gets one e-mail for both answers, then sees them on the page, and that staff read
// hers. Axe on every page at 375 and 1280 px.

const LOCALES = { es: esLocale, en: enLocale }
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '')

async function actAs(context: BrowserContext, baseURL: string, cookie: string) {
  await context.clearCookies()
  await context.addCookies([
    { name: 'better-auth.session_token', value: cookie, url: baseURL, httpOnly: true, sameSite: 'Lax' },
  ])
}

/**
 * The grouped e-mails wait a few minutes after a message (so a burst is one e-mail): here they
 * are made due at once, as the clock would make them (this request's only: tests run side by side).
 */
async function makeConversationEmailsDue(requestId: string) {
  const client = new pg.Client({ connectionString: runningEmbeddedUrl(e2eDataDir) })
  await client.connect()
  try {
    await client.query(
      `UPDATE pgboss.job SET start_after = now()
       WHERE name = 'conversation.email' AND state = 'created'
         AND data->>'conversationId' IN (SELECT id::text FROM conversations WHERE request_id = $1)`,
      [requestId],
    )
  } finally {
    await client.end()
  }
}

for (const language of ['es', 'en'] as const) {
  test(`a question with a photo on a request, answered from the staff's work list, one e-mail (${language})`, async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(300_000)
    const t = LOCALES[language]
    const base = baseURL ?? ''
    const customer = await insertSignedInAccount({
      email: uniqueEmail(`conversation-${language}`),
      name: 'Valentina Ruiz',
      language,
    })
    const moderator = await insertSignedInAccount({
      email: uniqueEmail(`conversation-mod-${language}`),
      name: 'Mika',
      role: 'moderator',
      language,
    })
    const quoted = await insertQuote(e2eDataDir, customer.id, { locale: language })
    const question = language === 'es' ? '¿Esta es la talla M que quería?' : 'Is this the size M I meant?'
    const answers =
      language === 'es'
        ? ['Sí, es la M.', 'Guía de tallas: https://shop.example/tallas']
        : ['Yes, that is the M.', 'Size guide: https://shop.example/sizes']

    // 1. The customer asks on the request page, with a photo; an empty message is refused first.
    await actAs(context, base, customer.cookie)
    await page.goto(`/user-dashboard/requests/${quoted.requestId}?lang=${language}`)
    await waitForHydration(page)
    const thread = page.locator('#conversation')
    await expect(thread.getByRole('heading', { name: t.conversation.heading })).toBeVisible()
    await expect(thread).toContainText(t.conversation.empty)
    await thread.getByRole('button', { name: t.conversation.send }).click()
    await expect(page.getByText(t.conversation.errors.empty)).toBeVisible()
    await axeAtBothWidths(page, `conversation-refused-${language}`)
    await page.getByLabel(t.conversation.message).fill(question)
    await page.getByLabel(t.conversation.files).setInputFiles({
      name: 'talla.png',
      mimeType: 'image/png',
      buffer: await plainPng(120, 90),
    })
    await page.getByRole('button', { name: t.conversation.send }).click()
    await expect(page).toHaveURL(new RegExp(`/user-dashboard/requests/${quoted.requestId}#conversation$`))
    const mine = page.locator('#conversation').getByTestId('conversation-message')
    await expect(mine).toHaveCount(1)
    await expect(mine.first()).toContainText(question)
    await expect(mine.first().getByRole('img')).toBeVisible()
    await expect(mine.first().getByTestId('message-read')).toContainText(t.conversation.sent)
    await axeAtBothWidths(page, `conversation-asked-${language}`)

    // 2. Staff: the work for today counts it; the waiting list has it; take it and open it.
    await actAs(context, base, moderator.cookie)
    await page.goto(`/admin-dashboard?lang=${language}`)
    const work = page.getByTestId('work-conversations')
    await expect(work).toBeVisible()
    expect(Number(await work.getAttribute('data-count'))).toBeGreaterThanOrEqual(1)
    await work.getByRole('link').click()
    await expect(page).toHaveURL(/\/admin-dashboard\/conversations$/)
    await waitForHydration(page)
    const row = page.getByTestId('waiting-row').filter({ hasText: quoted.requestNumber })
    await expect(row).toContainText('Valentina Ruiz')
    await row.getByRole('button', { name: new RegExp(t.staffConversation.assignMe) }).click()
    await expect(row.getByTestId('conversation-assignee')).toHaveText(
      fill(t.staffConversation.assignedTo, { name: 'Mika' }),
    )
    await axeAtBothWidths(page, `conversations-waiting-${language}`)
    await row.getByRole('link', { name: new RegExp(quoted.requestNumber) }).click()
    await expect(page).toHaveURL(new RegExp(`/admin-dashboard/requests/${quoted.requestId}#conversation$`))
    await waitForHydration(page)
    const staffThread = page.locator('#conversation')
    await expect(staffThread.getByTestId('conversation-message').first()).toContainText(question)
    await expect(staffThread.getByTestId('conversation-message').first().getByRole('img')).toBeVisible()
    await expect(staffThread.getByTestId('conversation-waiting')).toBeVisible()

    // 3. Two answers in a row.
    for (const answer of answers) {
      await page.getByLabel(t.staffConversation.message).fill(answer)
      await page.getByRole('button', { name: t.staffConversation.send }).click()
      await expect(page.locator('#conversation').getByText(answer)).toBeVisible()
    }
    await expect(page.locator('#conversation').getByTestId('conversation-waiting')).toHaveCount(0)
    await axeAtBothWidths(page, `conversation-staff-${language}`)

    // 4. One e-mail for both, in the customer's language.
    const early = (await emailCount(customer.email)) > 0 ? await latestEmail(customer.email) : null
    expect(early?.subject ?? null).toBeNull()
    await makeConversationEmailsDue(quoted.requestId)
    const email = await latestEmail(customer.email, {
      subject: fill(t.conversationEmail.subjectCustomer.request, { number: quoted.requestNumber }),
    })
    expect(email.text).toContain(answers[0])
    expect(email.text).toContain(answers[1])
    expect(email.text).toContain(`/user-dashboard/requests/${quoted.requestId}#conversation`)

    // 5. The customer sees both answers, a clickable link, and that staff read her question.
    await actAs(context, base, customer.cookie)
    await page.goto(`/user-dashboard/requests/${quoted.requestId}?lang=${language}#conversation`)
    await waitForHydration(page)
    const messages = page.locator('#conversation').getByTestId('conversation-message')
    await expect(messages).toHaveCount(3)
    await expect(messages.nth(0).getByTestId('message-read')).toContainText(t.conversation.read)
    await expect(messages.nth(1)).toContainText(t.conversation.team)
    const link = messages.nth(2).getByRole('link', { name: /https:\/\/shop\.example\// })
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc')
    await expect(link).toHaveAttribute('target', '_blank')
    await axeAtBothWidths(page, `conversation-answered-${language}`)
    // The conversation's own page (where a refused message is shown without JavaScript).
    await page.goto(`/user-dashboard/requests/${quoted.requestId}/messages?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByTestId('conversation-message')).toHaveCount(3)
    await axeAtBothWidths(page, `conversation-page-${language}`)
    await makeConversationEmailsDue(quoted.requestId)
    await page.waitForTimeout(1500)
    expect(await emailCount(customer.email)).toBe(1)
  })
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })
  for (const language of ['es', 'en'] as const) {
    test(`the customer's form is a plain post: refused with its message, then sent (${language})`, async ({
      page,
      context,
      baseURL,
    }) => {
      const t = LOCALES[language]
      const customer = await insertSignedInAccount({
        email: uniqueEmail(`conversation-nojs-${language}`),
        name: 'Lucía Gómez',
        language,
      })
      const quoted = await insertQuote(e2eDataDir, customer.id, { locale: language })
      await actAs(context, baseURL ?? '', customer.cookie)
      await page.goto(`/user-dashboard/requests/${quoted.requestId}?lang=${language}`)
      await page.getByLabel(t.conversation.message).fill('x'.repeat(10))
      await page.getByLabel(t.conversation.files).setInputFiles({
        name: 'page.svg',
        mimeType: 'image/svg+xml',
        buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      })
      await page.getByRole('button', { name: t.conversation.send }).click()
      await expect(page).toHaveURL(new RegExp(`/user-dashboard/requests/${quoted.requestId}/messages$`))
      await expect(page.getByText(t.conversation.errors.fileType)).toBeVisible()
      await expect(page.getByLabel(t.conversation.message)).toHaveValue('x'.repeat(10))
      // (Axe runs in the page: the same page with JavaScript is checked in the test above.)
      await page.getByLabel(t.conversation.message).fill('Sin JavaScript también')
      await page.getByRole('button', { name: t.conversation.send }).click()
      await expect(page).toHaveURL(new RegExp(`/user-dashboard/requests/${quoted.requestId}#conversation$`))
      await expect(page.getByTestId('conversation-message')).toContainText('Sin JavaScript también')
    })
  }
})
