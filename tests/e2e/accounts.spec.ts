import { PASSWORD, signIn, signUpAndVerify, uniqueEmail } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { insertAccount, latestEmail, setRole } from './outbox.ts'

test('sign up → e-mail in the chosen language → verify → signed in → dashboard; sign out and back in', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 })
  const email = uniqueEmail('ana')
  const mail = await signUpAndVerify(page, email, 'es')
  expect(mail.subject).toContain('Confirma tu correo electrónico')
  await expect(page).toHaveURL(/\/email-verification$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('¡Correo verificado!')
  await expect(page.getByRole('banner')).toContainText('Hola, Ana Pérez')
  // The spec's button continues to the home page; signed in, nothing asks to sign in again.
  await expect(page.getByRole('main').getByRole('link', { name: 'Iniciar sesión' })).toHaveCount(0)
  await page.getByRole('main').getByRole('link', { name: 'Continuar' }).click()
  await expect(page).toHaveURL(/\/$/)

  await page.goto('/dashboard?lang=en')
  await expect(page).toHaveURL(/\/user-dashboard$/)
  await expect(page.getByRole('main')).toContainText(`Signed in as Ana Pérez (${email}).`)
  // One heading for the page, and a customer's role is not news: it shows only when it is not "user".
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('My account')
  await expect(page.getByRole('main')).not.toContainText('Your account')
  await expect(page.getByRole('main')).not.toContainText('Role:')

  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByRole('status')).toContainText('Signed out')
  await expect(page.getByRole('banner')).not.toContainText('Welcome')

  await signIn(page, email)
  await expect(page.getByRole('status')).toContainText("Welcome back!You've been signed in successfully.")
})

// The one place a plain password sign-in goes through the form (the MFA tests go through it to
// reach the second step); every other test signs in with the `signInAs` fixture.
test('signing in through the form in Spanish welcomes the customer back and opens their dashboard', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 })
  const email = uniqueEmail('formulario')
  await insertAccount({ email, name: 'Lucía Gómez', language: 'es' })
  await signIn(page, email, PASSWORD, 'es')
  await expect(page.getByRole('status')).toContainText('¡Bienvenido de nuevo!Iniciaste sesión correctamente.')
  await expect(page.getByRole('banner')).toContainText('Hola, Lucía Gómez')
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/user-dashboard$/)
  await expect(page.getByRole('main')).toContainText(`Sesión iniciada como Lucía Gómez (${email}).`)
})

test('sign-in failures say why, the same way whether or not the account exists', async ({ page }) => {
  await signIn(page, 'nobody@example.com', 'wrong password here')
  const alert = page.getByRole('alert')
  await expect(alert).toContainText('Sign in failed')
  await expect(alert).toContainText('The e-mail or password is not correct.')
  const email = uniqueEmail('unverified')
  await insertAccount({ email, name: 'Luis', verified: false })
  await signIn(page, email)
  await expect(page.getByRole('alert')).toContainText('Confirm your e-mail first')
})

test('sign-up explains a password mismatch and a short password next to the fields', async ({ page }) => {
  await page.goto('/auth?mode=signup&lang=en')
  await waitForHydration(page)
  await page.getByLabel('Full name', { exact: true }).fill('Ana')
  await page.getByLabel('E-mail', { exact: true }).fill('ana@example.com')
  await page.getByLabel('Password', { exact: true }).fill('short')
  await page.getByLabel('Confirm password', { exact: true }).fill('different')
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByText('Password too short: use at least 8 characters.')).toBeVisible()
  await expect(page.getByText('Enter the same password in both fields.')).toBeVisible()
  // The specification's toast says it too (tests/e2e/toasts.spec.ts has both rules in both languages).
  await expect(page.getByRole('alert').filter({ hasText: "Passwords don't match" })).toContainText(
    'Please make sure both passwords are the same.',
  )
})

test('guards: anonymous, user and admin', async ({ page, signInAs }) => {
  await page.goto('/user-dashboard?lang=en')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Login Required')
  await expect(page.getByText('Please sign in to access this page.')).toBeVisible()
  await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fuser-dashboard/)

  await signInAs()
  const response = await page.goto('/admin-dashboard?lang=en')
  expect(response?.status()).toBe(403)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Access Required')
  await expect(page.getByText('Current role: user')).toBeVisible()
  await page.getByRole('link', { name: 'Back to Dashboard' }).click()
  await expect(page).toHaveURL(/\/user-dashboard$/)
})

test('guards: a moderator sees the role in the header, the customer area, and no admin area', async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 })
  const { email } = await signInAs()
  await page.goto('/dashboard?lang=en')
  await expect(page.getByRole('banner')).not.toContainText('(moderator)')
  // The open session sees the new role on its next request.
  await setRole(email, 'moderator')
  await page.goto('/dashboard?lang=en')
  await expect(page).toHaveURL(/\/user-dashboard$/)
  await expect(page.getByRole('banner')).toContainText('(moderator)')
  // No Admin badge (that is for admins); their way to the admin area's request pages is a link.
  await expect(page.getByRole('banner').getByText('Admin', { exact: true })).toHaveCount(0)
  await expect(page.getByRole('banner').getByRole('link', { name: 'Admin area' })).toHaveAttribute(
    'href',
    '/admin-dashboard/requests',
  )
  // The work for today is theirs too (ADR 036); the admin-only pages are not.
  expect((await page.goto('/admin-dashboard?lang=es'))?.status()).toBe(200)
  const response = await page.goto('/admin-dashboard/settings?lang=es')
  expect(response?.status()).toBe(403)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Se requiere acceso de administrador')
  await expect(page.getByText('Rol actual: moderador')).toBeVisible()
})

test('an address in ADMIN_EMAILS becomes admin: badge, and the dashboard goes to the admin area', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 })
  const email = 'admin@example.com'
  await signUpAndVerify(page, email).catch(async () => {
    // The account may exist from an earlier test in this run: sign in instead.
    await signIn(page, email)
  })
  await page.goto('/dashboard?lang=en')
  await expect(page).toHaveURL(/\/admin-dashboard$/)
  await expect(page.getByRole('banner')).toContainText('Admin')
})

test('forgot password → e-mail → new password → signed out everywhere → sign in with it', async ({
  page,
  signInAs,
}) => {
  const { email } = await signInAs()
  await page.goto('/forgot-password?lang=en')
  await waitForHydration(page)
  await page.getByLabel('E-mail', { exact: true }).fill(email)
  await page.getByRole('button', { name: 'Send link' }).click()
  await expect(page.getByRole('status')).toContainText(
    "Check your emailWe've sent you a password reset link.",
  )
  const mail = await latestEmail(email, { subject: 'Reset your password' })
  expect(mail.subject).toContain('Reset your password')
  await page.goto(mail.link)
  await expect(page).toHaveURL(/\/auth\/reset-password\?token=/)
  await page.getByLabel('New password', { exact: true }).fill('a brand new password')
  await page.getByLabel('Confirm password', { exact: true }).fill('a brand new password')
  await page.getByRole('button', { name: 'Update password' }).click()
  await expect(page.getByRole('status')).toContainText(
    'Password updated!Your password has been successfully updated.',
  )
  await page.goto('/user-dashboard?lang=en')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Login Required')
  await signIn(page, email, 'a brand new password')
  await expect(page.getByRole('status')).toContainText('Welcome back!')

  // The link works once: opened again (signed out, as anyone holding the e-mail would be).
  await page.context().clearCookies()
  await page.goto(mail.link)
  // Without cookies the page is in the default language.
  await expect(page.getByRole('alert')).toContainText('Enlace de restablecimiento no válido')
})

test('a reset page without a token says the link is invalid', async ({ page }) => {
  await page.goto('/auth/reset-password?lang=en')
  await expect(page).toHaveURL(/\/auth\?reset=invalid/)
  await expect(page.getByRole('alert')).toContainText('This password reset link is invalid or has expired.')
})

test('download my data, then delete the account, which asks for the password again', async ({
  page,
  signInAs,
}) => {
  const { email } = await signInAs()
  await page.goto('/user-dashboard/profile?lang=en')
  await waitForHydration(page)
  const download = await page.request.get('/account/export')
  expect(download.headers()['content-disposition']).toContain('my-data.json')
  const data = await download.json()
  expect(data.profile.email).toBe(email)
  expect(data.signInMethods).toEqual([expect.objectContaining({ provider: 'credential' })])
  expect(JSON.stringify(data)).not.toMatch(/argon2|password|token/i)

  await page.getByLabel('Current password', { exact: true }).fill('not my password')
  await page.getByRole('button', { name: 'Delete my account' }).click()
  await expect(page.getByText('That password is not correct.')).toBeVisible()
  await page.getByLabel('Current password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Delete my account' }).click()
  await expect(page.getByRole('status')).toContainText('Account deleted')
  await signIn(page, email)
  await expect(page.getByRole('alert')).toContainText('Sign in failed')
})

test('data export needs a session', async ({ request }) => {
  expect((await request.get('/account/export')).status()).toBe(401)
})

test('signing out in one tab shows in the other tab when it gets focus', async ({
  page,
  context,
  signInAs,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 })
  await signInAs({ name: 'Ana Pérez' })
  await page.goto('/user-dashboard?lang=en')
  await waitForHydration(page)
  const other = await context.newPage()
  await other.setViewportSize({ width: 1280, height: 900 })
  await other.goto('/user-dashboard?lang=en')
  await waitForHydration(other)
  await expect(other.getByRole('banner')).toContainText('Welcome, Ana Pérez')

  await page.bringToFront()
  await page
    .getByRole('banner')
    .getByRole('button', { name: /Sign out|Cerrar sesión/ })
    .click()
  await expect(page.getByRole('status')).toBeVisible()

  await other.bringToFront()
  await other.evaluate(() => window.dispatchEvent(new Event('focus')))
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Login Required')
  await expect(other.getByRole('banner')).not.toContainText('Welcome')
})

for (const [language, text] of [
  ['es', { heading: '¡Correo verificado!', continue: 'Continuar', signIn: 'Iniciar sesión' }],
  ['en', { heading: 'Email Verified!', continue: 'Continue', signIn: 'Sign in' }],
] as const) {
  test(`"Email Verified!" continues to the home page, signed in or not (${language})`, async ({ page }) => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 })
      await page.goto(`/email-verification?lang=${language}`)
      await waitForHydration(page)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text.heading)
      // Not signed in here: the page also says where to sign in, under the button.
      await expect(page.getByRole('main').getByRole('link', { name: text.signIn })).toHaveAttribute(
        'href',
        '/auth',
      )
    }
    await page.getByRole('main').getByRole('link', { name: text.continue }).click()
    await expect(page).toHaveURL(/\/$/)
  })
}
