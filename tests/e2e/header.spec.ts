import type { Page } from '@playwright/test'
import { signUpAndVerify, uniqueEmail } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

const WIDTHS = [320, 768, 800, 1024, 1280]
const TEXT = {
  es: { signIn: 'Iniciar sesión', myArea: 'Mi área', signOut: 'Cerrar sesión', menu: 'Abrir menú' },
  en: { signIn: 'Sign in', myArea: 'My area', signOut: 'Sign out', menu: 'Open menu' },
} as const

/** One line: the bar is as tall as one row of 44 px targets, and nothing scrolls sideways. */
async function expectOneLineHeader(page: Page, width: number) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow, `sideways scroll at ${width} px`).toBe(0)
  const height = (await page.getByRole('banner').boundingBox())?.height ?? 0
  expect(height, `header height at ${width} px`).toBeLessThanOrEqual(72)
}

for (const language of ['es', 'en'] as const) {
  const text = TEXT[language]

  test(`the header fits on one line at every width, with a way in for visitors (${language})`, async ({
    page,
  }) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 })
      await page.goto(`/store-guide?lang=${language}`)
      await waitForHydration(page)
      await expectOneLineHeader(page, width)
      const banner = page.getByRole('banner')
      const inBar = banner.getByRole('link', { name: text.signIn }).first()
      if (!(await inBar.isVisible())) await banner.locator('summary').click()
      await expect(banner.getByRole('link', { name: text.signIn }).first()).toHaveAttribute('href', '/auth')
    }
  })

  test(`signed in, the header fits on one line and leads to the customer area (${language})`, async ({
    page,
  }) => {
    await signUpAndVerify(page, uniqueEmail(`header-${language}`), language)
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 })
      await page.goto(`/calculator?lang=${language}`)
      await waitForHydration(page)
      await expectOneLineHeader(page, width)
      const banner = page.getByRole('banner')
      if (width < 1280) {
        await banner.locator('summary').click()
        await expect(banner.getByRole('button', { name: text.signOut })).toBeVisible()
      } else {
        await expect(banner.getByRole('button', { name: text.signOut })).toBeVisible()
      }
    }
    await page
      .getByRole('banner')
      .getByRole('link', { name: /Ana Pérez/ })
      .first()
      .click()
    await expect(page).toHaveURL(/\/user-dashboard$/)
  })
}

const AREA = {
  user: { path: '/user-dashboard', es: 'Mi área', en: 'My area' },
  moderator: { path: '/admin-dashboard/requests', es: 'Administración', en: 'Admin area' },
  admin: { path: '/admin-dashboard', es: 'Administración', en: 'Admin area' },
} as const

for (const role of ['user', 'moderator', 'admin'] as const) {
  test(`signed in as ${role}, a visible button to their own area at 375, 800 and 1280 px, by keyboard, in both languages`, async ({
    page,
    signInAs,
  }) => {
    test.setTimeout(120_000)
    await signInAs({ email: uniqueEmail(`area-${role}`), name: 'John Smith', role })
    const area = AREA[role]
    for (const language of ['es', 'en'] as const) {
      for (const width of [375, 800, 1280]) {
        await page.setViewportSize({ width, height: 800 })
        await page.goto(`/services?lang=${language}`)
        await waitForHydration(page)
        await expectOneLineHeader(page, width)
        // In the bar itself (no menu to open), named by what it leads to.
        const link = page.getByRole('banner').getByRole('link', { name: area[language] })
        await expect(link, `${language} ${width}px`).toBeVisible()
        await expect(link).toHaveAttribute('href', area.path)
        const box = await link.boundingBox()
        expect(box?.height ?? 0, `a 44 px target at ${width}px`).toBeGreaterThanOrEqual(44)
        // By keyboard: Tab from the top of the page (just loaded) reaches it, Enter follows it.
        let reached = false
        for (let tab = 0; tab < 20 && !reached; tab++) {
          await page.keyboard.press('Tab')
          reached = await link.evaluate((element) => element === document.activeElement)
        }
        expect(reached, `reached by Tab at ${width}px`).toBe(true)
        if (width === 1280) {
          await expect(link).toContainText(language === 'es' ? 'Hola, John Smith' : 'Welcome, John Smith')
          await page.keyboard.press('Enter')
          await expect(page).toHaveURL(new RegExp(`${area.path}$`))
        }
      }
    }
  })
}
