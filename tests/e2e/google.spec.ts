import type { Page } from '@playwright/test'
import { googleIssuerURL } from '../../playwright.config.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

// Google sign-in through the local OpenID provider that stands in for Google
// (tests/support/oidc-provider.ts): its sign-in page asks who you are, then sends you back.
// better-auth allows 3 sign-in starts per 10 s from one address: this file makes three.
let counter = 0
const uniqueEmail = (prefix: string) => `${prefix}.${Date.now()}.${++counter}@example.com`

async function continueWithGoogle(page: Page, language: 'es' | 'en') {
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`/auth?lang=${language}`)
  await waitForHydration(page)
  await page
    .getByRole('button', { name: language === 'es' ? 'Continuar con Google' : 'Continue with Google' })
    .click()
  await expect(page).toHaveURL(new RegExp(`^${googleIssuerURL}/sign-in\\?`))
}

async function signInAtProvider(page: Page, email: string, name: string) {
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Name').fill(name)
  await page.getByRole('button', { name: 'Continue' }).click()
}

test('Google sign-in in Spanish: the button, the provider, back home signed in and welcomed', async ({
  page,
}) => {
  await continueWithGoogle(page, 'es')
  await signInAtProvider(page, uniqueEmail('carmen'), 'Carmen Ruiz')
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('status')).toContainText('¡Bienvenido de nuevo!')
  await expect(page.getByRole('banner')).toContainText('Hola, Carmen Ruiz')
})

test('Google sign-in in English: signed in with a verified account that the dashboard shows', async ({
  page,
}) => {
  const email = uniqueEmail('george')
  await continueWithGoogle(page, 'en')
  await signInAtProvider(page, email, 'George Lee')
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('status')).toContainText('Welcome back!')
  await expect(page.getByRole('banner')).toContainText('Welcome, George Lee')
  await page.goto('/user-dashboard')
  await expect(page.getByRole('main')).toContainText(`Signed in as George Lee (${email}).`)
  const exported = await (await page.request.get('/account/export')).json()
  expect(exported.signInMethods).toEqual([expect.objectContaining({ provider: 'google' })])
})

test('cancelling at Google comes back to sign-in with the reason, signed out', async ({ page }) => {
  await continueWithGoogle(page, 'en')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page).toHaveURL(/\/auth\?error=access_denied$/)
  const alert = page.getByRole('alert')
  await expect(alert).toContainText('Sign in failed')
  await expect(alert).toContainText('You cancelled signing in with Google.')
  await expect(page.getByRole('banner')).not.toContainText('Welcome')
})
