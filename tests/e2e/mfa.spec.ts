import type { Page } from '@playwright/test'
import { base32Decode, hotp, timeStep } from '../../core/accounts/mfa/totp.ts'
import { PASSWORD, uniqueEmail } from './accounts.ts'
import { expect, expectNoAxeViolations, test, waitForHydration } from './fixtures.ts'
import { latestSms } from './outbox.ts'

/** A six-digit code the server does not accept now (none of the steps it allows). */
function wrongCode(secret: string) {
  const valid = new Set([-1, 0, 1].map((offset) => hotp(base32Decode(secret), timeStep() + offset)))
  return ['000000', '111111', '222222'].find((code) => !valid.has(code)) ?? '333333'
}

/** A form on the page, found by its submit button's name. */
const formWith = (page: Page, button: string) =>
  page.locator('form', { has: page.getByRole('button', { name: button, exact: true }) })

test('authenticator app in Spanish: enrol with the QR page, sign out, sign in with a code, session aal2', async ({
  page,
  signInAs,
}) => {
  // Two axe scans and three rounds of codes: near the 30 s default on a busy two-core machine.
  test.slow()
  await page.setViewportSize({ width: 1280, height: 900 })
  const { email } = await signInAs({ email: uniqueEmail('totp'), language: 'es' })

  await page.goto('/user-dashboard/profile?lang=es')
  await page.getByRole('link', { name: 'Seguridad y verificación en dos pasos' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Seguridad')
  await expect(page.getByTestId('aal')).toHaveText(
    'Solo contraseña: esta sesión se inició sin el segundo paso.',
  )
  await expect(page.getByTestId('aal')).toHaveAttribute('data-aal', 'aal1')
  await waitForHydration(page)

  const add = formWith(page, 'Configurar aplicación de autenticación')
  await add.getByLabel('Nombre de este método').fill('Mi celular')
  await add.getByRole('button').click()
  await expect(
    page.getByRole('img', { name: 'Código QR para agregar «Mi celular» a una aplicación de autenticación' }),
  ).toBeVisible()
  await expectNoAxeViolations(page)
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replaceAll(' ', '')
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)

  const confirm = formWith(page, 'Confirmar')
  await confirm.getByLabel('Código').fill(wrongCode(secret))
  await confirm.getByRole('button', { name: 'Confirmar' }).click()
  await expect(page.getByText('Ese código no es correcto.')).toBeVisible()
  const confirmedStep = timeStep()
  await confirm.getByLabel('Código').fill(hotp(base32Decode(secret), confirmedStep))
  await confirm.getByRole('button', { name: 'Confirmar' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'está listo' })).toBeVisible()
  const codes = page.getByRole('list', { name: 'Tus códigos de respaldo' }).getByRole('listitem')
  await expect(codes).toHaveCount(10)
  await expect(page.getByTestId('aal')).toHaveAttribute('data-aal', 'aal2')
  await expect(page.getByText('Verificado', { exact: true })).toBeVisible()

  // Sign out, then in again: the password alone no longer signs in.
  await page.getByRole('banner').getByRole('button', { name: 'Cerrar sesión' }).click()
  await expect(page.getByRole('banner')).not.toContainText('Hola')
  await page.goto('/auth?lang=es')
  await waitForHydration(page)
  await page.getByLabel('Correo electrónico', { exact: true }).fill(email)
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Iniciar sesión' }).click()
  await expect(page).toHaveURL(/\/auth\/mfa/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verificación en dos pasos')
  await expect(page.getByRole('banner')).not.toContainText('Hola')
  await expectNoAxeViolations(page)
  // The code used to confirm the app does not work again (the very same step, however long the
  // sign-in took on a busy machine); a later one does.
  await page.getByLabel('Código', { exact: true }).fill(hotp(base32Decode(secret), confirmedStep))
  await page.getByRole('button', { name: 'Verificar' }).first().click()
  await expect(page.getByText('Ese código no es correcto.')).toBeVisible()
  const nextStep = Math.max(timeStep(), confirmedStep + 1)
  await page.getByLabel('Código', { exact: true }).fill(hotp(base32Decode(secret), nextStep))
  await page.getByRole('button', { name: 'Verificar' }).first().click()
  await expect(page.getByRole('status').filter({ hasText: '¡Bienvenido de nuevo!' })).toBeVisible()
  await page.goto('/account/security')
  await expect(page.getByTestId('aal')).toHaveText('Verificación en dos pasos: activa en esta sesión.')
  await expect(page.getByTestId('aal')).toHaveAttribute('data-aal', 'aal2')
})

test('phone by SMS in English: add, confirm with the texted code, sign in with a new code; remove with the password', async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize({ width: 375, height: 800 })
  const { email } = await signInAs({ email: uniqueEmail('phone') })
  const phone = `+3460${String(Date.now()).slice(-7)}`
  await page.goto('/account/security?lang=en')
  await waitForHydration(page)

  const add = formWith(page, 'Add phone')
  await add.getByLabel('Name for this method').fill('My phone')
  await add.getByLabel('Mobile number').fill('600 12')
  await add.getByRole('button').click()
  await expect(
    page.getByText('Enter the number in international format: + and the country code, then the number.'),
  ).toBeVisible()
  await formWith(page, 'Add phone').getByLabel('Mobile number').fill(phone)
  await formWith(page, 'Add phone').getByRole('button').click()
  await expect(page.getByText(/We sent a code to \+34•+\d\d\. It expires in 5 minutes\./)).toBeVisible()
  const first = await latestSms(phone)
  expect(first.text).toMatch(/your verification code is \d{6}\. It expires in 5 minutes/)
  await page.getByLabel('Code', { exact: true }).fill(first.code)
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'My phone is ready' })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Your backup codes' }).getByRole('listitem')).toHaveCount(10)
  await expectNoAxeViolations(page)

  await page.context().clearCookies()
  await page.goto('/auth?lang=en')
  await waitForHydration(page)
  await page.getByLabel('E-mail', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/auth\/mfa/)
  await page.getByRole('button', { name: 'Send code' }).click()
  await expect(page.getByText(/We sent a code to/)).toBeVisible()
  const second = await latestSms(phone)
  expect(second.code).not.toBe('')
  await page.getByLabel('Code', { exact: true }).fill(second.code)
  await page.getByRole('button', { name: 'Verify' }).first().click()
  await expect(page.getByRole('status').filter({ hasText: 'Welcome back!' })).toBeVisible()

  await page.goto('/account/security')
  await waitForHydration(page)
  const remove = formWith(page, 'Remove')
  await remove.getByLabel('Current password').fill('not the password')
  await remove.getByRole('button').click()
  await expect(page.getByText('That password is not correct.')).toBeVisible()
  await formWith(page, 'Remove').getByLabel('Current password').fill(PASSWORD)
  await formWith(page, 'Remove').getByRole('button').click()
  await expect(page.getByRole('status').filter({ hasText: 'My phone was removed.' })).toBeVisible()
  await expect(page.getByText('You have not set up a second step yet.')).toBeVisible()
})

test('the security page needs a session, and the code page a pending sign-in', async ({ page }) => {
  const response = await page.goto('/account/security?lang=en')
  expect(response?.status()).toBe(401)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Login Required')
  await page.goto('/auth/mfa?lang=en')
  await expect(page).toHaveURL(/\/auth$/)
})

test('without JavaScript: sign in with the password, then the code, and the session is aal2', async ({
  page,
  browser,
  signInAs,
}) => {
  const { email } = await signInAs({ email: uniqueEmail('nojs') })
  await page.goto('/account/security?lang=en')
  await waitForHydration(page)
  const add = formWith(page, 'Set up authenticator app')
  await add.getByLabel('Name for this method').fill('Phone app')
  await add.getByRole('button').click()
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replaceAll(' ', '')
  await page.getByLabel('Code', { exact: true }).fill(hotp(base32Decode(secret), timeStep()))
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByTestId('aal')).toHaveAttribute('data-aal', 'aal2')

  const context = await browser.newContext({ javaScriptEnabled: false })
  const plain = await context.newPage()
  await plain.goto('/auth?lang=en')
  await plain.getByLabel('E-mail', { exact: true }).fill(email)
  await plain.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await plain.getByRole('button', { name: 'Sign in' }).click()
  await expect(plain).toHaveURL(/\/auth\/mfa/)
  await plain.getByLabel('Code', { exact: true }).fill(wrongCode(secret))
  await plain.getByRole('button', { name: 'Verify' }).first().click()
  await expect(plain.getByText('That code is not correct.')).toBeVisible()
  await plain.getByLabel('Code', { exact: true }).fill(hotp(base32Decode(secret), timeStep() + 1))
  await plain.getByRole('button', { name: 'Verify' }).first().click()
  await expect(plain.getByRole('status').filter({ hasText: 'Welcome back!' })).toBeVisible()
  await plain.goto('/account/security')
  await expect(plain.getByTestId('aal')).toHaveAttribute('data-aal', 'aal2')
  await expect(plain.getByTestId('aal')).toHaveText('Two-step verification: on for this session.')
  await context.close()
})

for (const language of ['en', 'es'] as const) {
  test(`backup codes in ${language}: downloaded as a text file and copied with the button`, async ({
    page,
    context,
    signInAs,
  }) => {
    const t =
      language === 'es'
        ? {
            setup: 'Configurar aplicación de autenticación',
            name: 'Nombre de este método',
            code: 'Código',
            confirm: 'Confirmar',
            codes: 'Tus códigos de respaldo',
            download: 'Descargar como archivo de texto',
            file: 'codigos-de-respaldo.txt',
            copy: 'Copiar los códigos',
            copied: 'Copiados.',
          }
        : {
            setup: 'Set up authenticator app',
            name: 'Name for this method',
            code: 'Code',
            confirm: 'Confirm',
            codes: 'Your backup codes',
            download: 'Download as a text file',
            file: 'backup-codes.txt',
            copy: 'Copy the codes',
            copied: 'Copied.',
          }
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await signInAs({ email: uniqueEmail(`codes-${language}`), language })
    await page.goto(`/account/security?lang=${language}`)
    await waitForHydration(page)
    const add = formWith(page, t.setup)
    await add.getByLabel(t.name).fill('App')
    await add.getByRole('button').click()
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replaceAll(' ', '')
    await page.getByLabel(t.code, { exact: true }).fill(hotp(base32Decode(secret), timeStep()))
    await page.getByRole('button', { name: t.confirm }).click()
    const items = page.getByRole('list', { name: t.codes }).getByRole('listitem')
    await expect(items).toHaveCount(10)
    const codes = await items.allTextContents()

    const downloading = page.waitForEvent('download')
    await page.getByRole('link', { name: t.download }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toBe(t.file)
    const path = await download.path()
    const { readFile } = await import('node:fs/promises')
    const lines = (await readFile(path, 'utf8')).split('\n')
    for (const code of codes) expect(lines).toContain(code)

    await page.getByRole('button', { name: t.copy }).click()
    await expect(page.getByRole('status').filter({ hasText: t.copied })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'))
  })
}
