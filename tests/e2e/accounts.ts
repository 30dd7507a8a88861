import type { Page } from '@playwright/test'
import { expect, PASSWORD, waitForHydration } from './fixtures.ts'
import { latestEmail } from './outbox.ts'

// Account steps the browser tests share. Most tests sign in with the `signInAs` fixture; these
// go through the forms, for the tests about the forms.
export { PASSWORD, uniqueEmail } from './fixtures.ts'

export async function signUpAndVerify(page: Page, email: string, language: 'es' | 'en' = 'en') {
  await page.goto(`/auth?mode=signup&lang=${language}`)
  await waitForHydration(page)
  const labels =
    language === 'es'
      ? {
          name: 'Nombre completo',
          email: 'Correo electrónico',
          password: 'Contraseña',
          confirm: 'Confirmar contraseña',
          submit: 'Crear cuenta',
        }
      : {
          name: 'Full name',
          email: 'E-mail',
          password: 'Password',
          confirm: 'Confirm password',
          submit: 'Create account',
        }
  await page.getByLabel(labels.name, { exact: true }).fill('Ana Pérez')
  await page.getByLabel(labels.email, { exact: true }).fill(email)
  await page.getByLabel(labels.password, { exact: true }).fill(PASSWORD)
  await page.getByLabel(labels.confirm, { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: labels.submit }).click()
  await expect(page.getByRole('status')).toContainText(
    language === 'es' ? 'Revisa tu correo' : 'Check your email',
  )
  const mail = await latestEmail(email)
  await page.goto(mail.link)
  return mail
}

export async function signIn(page: Page, email: string, password = PASSWORD, language: 'es' | 'en' = 'en') {
  await page.goto(`/auth?lang=${language}`)
  await waitForHydration(page)
  const labels =
    language === 'es'
      ? { email: 'Correo electrónico', password: 'Contraseña', submit: 'Iniciar sesión' }
      : { email: 'E-mail', password: 'Password', submit: 'Sign in' }
  await page.getByLabel(labels.email, { exact: true }).fill(email)
  await page.getByLabel(labels.password, { exact: true }).fill(password)
  await page.getByRole('button', { name: labels.submit }).click()
}
