import { e2eDataDir, paymentsDataDir, paymentsURL, whatsappStandInURL } from '../../playwright.config.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { insertSignedInAccount } from './outbox.ts'

// WhatsApp updates (docs/decisions/049), on the site with WhatsApp configured (the payments site,
// pointing at the local Cloud API stand-in): a customer on a phone (375 px) gives a number,
// types the code WhatsApp brought, chooses updates, and STOP from the phone turns it off. On the
// default site (nothing configured, as a fresh `npm start`) there is no link and no page.

const WORDS = {
  en: {
    link: 'Get these updates on WhatsApp',
    phone: 'WhatsApp number',
    sendCode: 'Send me a code',
    code: 'Code from WhatsApp',
    confirm: 'Confirm number',
    wrong: 'That code is not right',
    on: 'On: we send your chosen updates to',
    refunds: 'Refunds',
    save: 'Save',
    saved: 'Your WhatsApp updates were saved',
    stopped: 'Off: we send nothing to',
  },
  es: {
    link: 'Recibe estos avisos por WhatsApp',
    phone: 'Número de WhatsApp',
    sendCode: 'Envíame un código',
    code: 'Código de WhatsApp',
    confirm: 'Confirmar número',
    wrong: 'Ese código no es correcto',
    on: 'Activado: enviamos los avisos que elegiste a',
    refunds: 'Reembolsos',
    save: 'Guardar',
    saved: 'Guardamos tus avisos por WhatsApp',
    stopped: 'Desactivado: no enviamos nada a',
  },
} as const

async function codeSentTo(phone: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const { sent } = (await (await fetch(`${whatsappStandInURL}/_stand-in/sent`)).json()) as {
      sent: { to: string; template: string; body: string[] }[]
    }
    const last = sent.filter((m) => m.to === phone && m.template === 'account_verification_code').at(-1)
    if (last?.body[0]) return last.body[0]
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no code sent to ${phone}`)
}

test.describe('with WhatsApp configured (the stand-in)', () => {
  test.use({ baseURL: paymentsURL })

  for (const [language, phone] of [
    ['es', '+5215512340001'],
    ['en', '+14155550101'],
  ] as const) {
    test(`a customer opts in on a phone, chooses updates, and STOP turns it off (${language})`, async ({
      page,
      context,
    }) => {
      test.setTimeout(120_000)
      const words = WORDS[language]
      const account = await insertSignedInAccount(
        { email: uniqueEmail(`whatsapp-${language}`), name: 'Ana Pérez', language },
        paymentsDataDir,
      )
      await context.addCookies([
        {
          name: 'better-auth.session_token',
          value: account.cookie,
          url: paymentsURL,
          httpOnly: true,
          sameSite: 'Lax',
        },
      ])
      await page.setViewportSize({ width: 375, height: 740 })
      await page.goto(`/user-dashboard/notifications?lang=${language}`)
      await waitForHydration(page)
      await page.getByRole('link', { name: words.link }).click()
      await expect(page).toHaveURL(/\/user-dashboard\/notifications\/whatsapp$/)
      await expect(page.locator('html')).toHaveAttribute('lang', language)
      await axeAtBothWidths(page)
      await page.setViewportSize({ width: 375, height: 740 })

      // The number with spaces, as people type it.
      await page.getByLabel(words.phone).fill(phone.replace(/^(\+\d{2})(\d{3})/, '$1 $2 '))
      await page.getByRole('button', { name: words.sendCode }).click()
      const code = await codeSentTo(phone)
      await expect(page.getByLabel(words.code)).toBeVisible()
      // A wrong code is said beside the field.
      await page.getByLabel(words.code).fill(code === '000000' ? '000001' : '000000')
      await page.getByRole('button', { name: words.confirm }).click()
      await expect(page.getByText(words.wrong)).toBeVisible()
      await expect(page.getByLabel(words.code)).toHaveAttribute('aria-invalid', 'true')
      await axeAtBothWidths(page)
      await page.setViewportSize({ width: 375, height: 740 })

      await page.getByLabel(words.code).fill(code)
      await page.getByRole('button', { name: words.confirm }).click()
      await expect(page.getByTestId('whatsapp-status')).toContainText(words.on)
      await page.getByRole('checkbox', { name: words.refunds }).uncheck()
      await page.getByRole('button', { name: words.save, exact: true }).click()
      await expect(page.getByRole('status').filter({ hasText: words.saved })).toBeVisible()
      await expect(page.getByRole('checkbox', { name: words.refunds })).not.toBeChecked()
      await axeAtBothWidths(page)

      // STOP from the phone: the stand-in posts the signed webhook; the page says it is off.
      const stop = await fetch(`${whatsappStandInURL}/_stand-in/inbound`, {
        method: 'POST',
        body: JSON.stringify({ from: phone, text: language === 'es' ? 'PARAR' : 'STOP' }),
      })
      expect(await stop.json()).toEqual({ status: 200 })
      await page.reload()
      await expect(page.getByTestId('whatsapp-status')).toContainText(words.stopped)
    })
  }
})

test('with nothing configured there is no WhatsApp link and no page', async ({ page, signInAs }) => {
  expect(e2eDataDir).not.toBe(paymentsDataDir)
  await signInAs({ language: 'en' })
  await page.goto('/user-dashboard/notifications?lang=en')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByRole('link', { name: WORDS.en.link })).toHaveCount(0)
  const answer = await page.goto('/user-dashboard/notifications/whatsapp')
  expect(answer?.status()).toBe(404)
})
