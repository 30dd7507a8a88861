import enLocale from '../../app/locales/en.ts'
import esLocale from '../../app/locales/es.ts'
import { expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'

// A person who opens a guarded address in the browser, a page or a file (a photo, "download my
// data", the CSV), gets the guard page inside the site, in their language, and it works: no
// console error after hydration, and its button leads on (Sign In to the sign-in page with the
// way back; a customer at a staff address sees their role).

const LOCALES = { es: esLocale, en: enLocale }
const uuid = '7ec2eced-5832-48c2-923c-bbf38f775c9c'

for (const language of ['es', 'en'] as const) {
  const t = LOCALES[language]

  test(`anonymous: Login Required at a page and at files, and Sign In leads to the sign-in page (${language})`, async ({
    page,
  }) => {
    for (const path of [
      '/dashboard',
      '/account/export',
      `/user-dashboard/package-photos/${uuid}`,
      `/admin-dashboard/analytics.csv`,
    ]) {
      const answer = await page.goto(`${path}?lang=${language}`)
      expect(answer?.status(), path).toBe(401)
      await waitForHydration(page)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.session.guards.loginRequired)
      await expect(page.getByRole('banner')).toBeVisible()
      await expect(page.getByRole('contentinfo')).toBeVisible()
    }
    await page.getByRole('main').getByRole('link', { name: t.session.guards.signIn }).click()
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin-dashboard%2Fanalytics\.csv/)
  })

  test(`a customer at a staff file: Admin Access Required with their role (${language})`, async ({
    page,
    signInAs,
  }) => {
    await signInAs({ email: uniqueEmail(`guard-${language}`), language })
    for (const path of [
      '/admin-dashboard/analytics.csv',
      `/admin-dashboard/requests/${uuid}/photos/${uuid}`,
    ]) {
      const answer = await page.goto(`${path}?lang=${language}`)
      expect(answer?.status(), path).toBe(403)
      await waitForHydration(page)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.session.guards.adminRequired)
      await expect(
        page.getByText(t.session.guards.currentRole.replace('{{role}}', t.session.roles.user)),
      ).toBeVisible()
    }
  })
}
