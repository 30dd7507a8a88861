import type { Page } from '@playwright/test'
import {
  axeAtBothWidths,
  expect,
  expectNoAxeViolations,
  test,
  uniqueEmail,
  waitForHydration,
} from './fixtures.ts'
import { latestEmail } from './outbox.ts'

// The customer area's tabs, in both languages: each tab is a URL (the address bar, back and
// forward), a sidebar at 1280 px and a slide-in menu at 375 px; the notification of a sent
// request, the header's count going down after "mark all as read"; the profile (the e-mails then
// follow its language) and the address book (add, default, edit, delete with confirmation). Axe
// checks each new page at 1280 and 375 px.

const WORDS = {
  en: {
    area: 'Customer area',
    tabs: {
      submit: 'Send a request',
      history: 'My requests',
      profile: 'My profile',
      notifications: 'Notifications',
      shipping: 'Shipping',
      payments: 'Payments and refunds',
    },
    menu: (tab: string) => `My area: ${tab}`,
    closeMenu: 'Close the menu',
    url: 'Link to the item',
    send: 'Send request',
    received: (number: string) => `We received your request ${number}`,
    oneUnread: '1 unread notification',
    noUnread: 'Notifications',
    markAll: 'Mark all as read',
    markedAll: 'All notifications are marked as read.',
    shippingLead: /Your items at our office in Osaka/,
    storage: /You have no items at our office yet/,
    name: 'Full name',
    phone: 'Phone (optional)',
    language: 'Language of our e-mails',
    save: 'Save my details',
    saved: 'Your details were saved.',
    welcome: (name: string) => `Welcome, ${name}`,
    addAddress: 'Add an address',
    recipient: 'Full name of the recipient',
    street: 'Street, number and apartment',
    city: 'City',
    // Named for the chosen country (Mexico, the USA: a state and a postal code are required).
    region: 'State',
    postalCode: 'Postal code',
    usPostalError: 'Postal codes in United States look like 10001.',
    usStateError: 'Required for addresses in United States.',
    requiredError: 'This field is required.',
    countryError: 'Choose a country from the list.',
    country: 'Country',
    courierPhone: 'Phone for the courier',
    makeDefaultBox: 'Use this as my default address',
    saveAddress: 'Save address',
    added: 'Address added.',
    defaultBadge: 'Default address',
    makeDefault: (name: string, city: string) => `Make default: ${name}, ${city}`,
    edit: (name: string, city: string) => `Edit: ${name}, ${city}`,
    deleteLink: (name: string, city: string) => `Delete: ${name}, ${city}`,
    deleteTitle: 'Delete this address?',
    deleteConfirm: 'Yes, delete this address',
    deleted: 'Address deleted.',
    defaultChanged: 'Default address changed.',
    addressSaved: 'Address saved.',
    countryName: 'Mexico',
    phoneError: 'Write a phone number that exists',
  },
  es: {
    area: 'Área de cliente',
    tabs: {
      submit: 'Enviar una solicitud',
      history: 'Mis solicitudes',
      profile: 'Mi perfil',
      notifications: 'Notificaciones',
      shipping: 'Envíos',
      payments: 'Pagos y reembolsos',
    },
    menu: (tab: string) => `Mi área: ${tab}`,
    closeMenu: 'Cerrar el menú',
    url: 'Enlace al producto',
    send: 'Enviar solicitud',
    received: (number: string) => `Recibimos tu solicitud ${number}`,
    oneUnread: '1 notificación sin leer',
    noUnread: 'Notificaciones',
    markAll: 'Marcar todas como leídas',
    markedAll: 'Todas las notificaciones están marcadas como leídas.',
    shippingLead: /Tus productos en nuestra oficina de Osaka/,
    storage: /Todavía no tienes productos en nuestra oficina/,
    name: 'Nombre completo',
    phone: 'Teléfono (opcional)',
    language: 'Idioma de nuestros correos',
    save: 'Guardar mis datos',
    saved: 'Guardamos tus datos.',
    welcome: (name: string) => `Hola, ${name}`,
    addAddress: 'Agregar una dirección',
    recipient: 'Nombre completo de quien recibe',
    street: 'Calle, número y departamento',
    city: 'Ciudad',
    region: 'Estado',
    postalCode: 'Código postal',
    usPostalError: 'Los códigos postales en Estados Unidos son como 10001.',
    usStateError: 'Obligatorio para direcciones en Estados Unidos.',
    requiredError: 'Este campo es obligatorio.',
    countryError: 'Elige un país de la lista.',
    country: 'País',
    courierPhone: 'Teléfono para el repartidor',
    makeDefaultBox: 'Usar como mi dirección principal',
    saveAddress: 'Guardar dirección',
    added: 'Dirección agregada.',
    defaultBadge: 'Dirección principal',
    makeDefault: (name: string, city: string) => `Usar como principal: ${name}, ${city}`,
    edit: (name: string, city: string) => `Editar: ${name}, ${city}`,
    deleteLink: (name: string, city: string) => `Eliminar: ${name}, ${city}`,
    deleteTitle: '¿Eliminar esta dirección?',
    deleteConfirm: 'Sí, eliminar esta dirección',
    deleted: 'Dirección eliminada.',
    defaultChanged: 'Cambiaste tu dirección principal.',
    addressSaved: 'Dirección guardada.',
    countryName: 'México',
    phoneError: 'Escribe un número de teléfono que exista',
  },
} as const

type Words = (typeof WORDS)[keyof typeof WORDS]

const sidebar = (page: Page, words: Words) => page.getByRole('navigation', { name: words.area })
const bell = (page: Page) =>
  page.getByRole('banner').getByTestId('header-notifications').filter({ visible: true })

async function expectTab(page: Page, words: Words, tab: keyof Words['tabs'], path: string) {
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[/?]/g, '\\$&')}(\\?.*)?$`))
  await expect(sidebar(page, words).getByRole('link', { name: words.tabs[tab] })).toHaveAttribute(
    'aria-current',
    'page',
  )
}

for (const language of ['es', 'en'] as const) {
  const words = WORDS[language]

  test(`tabs by URL, by the sidebar and by the slide-in menu, back and forward; a sent request's notification and the header's count (${language})`, async ({
    page,
    signInAs,
  }) => {
    // Eight axe scans and two widths: slow on a busy machine.
    test.setTimeout(240_000)
    await signInAs({ email: uniqueEmail(`area-${language}`), language })
    await page.setViewportSize({ width: 1280, height: 900 })

    // Each tab is a URL of its own.
    for (const [tab, path] of [
      ['history', '/user-dashboard/requests'],
      ['profile', '/user-dashboard/profile'],
      ['notifications', '/user-dashboard/notifications'],
      ['shipping', '/user-dashboard/shipping'],
      ['submit', '/user-dashboard'],
    ] as const) {
      await page.goto(`${path}?lang=${language}`)
      await expectTab(page, words, tab, path)
    }
    await waitForHydration(page)
    await expect(bell(page)).toHaveAttribute('aria-label', words.noUnread)

    // Send a request: its notification arrives, the header says so.
    await page.getByLabel(words.url, { exact: true }).fill('https://jp.mercari.com/item/m98765')
    await page.getByRole('button', { name: words.send }).click()
    await expect(page).toHaveURL(/\/user-dashboard\/requests\/[0-9a-f-]{36}$/)
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/PR-\d{6}/)
    const number = (await page.getByRole('heading', { level: 1 }).textContent())?.match(/PR-\d{6}/)?.[0] ?? ''
    expect(number).toMatch(/^PR-\d{6}$/)
    await expect(bell(page)).toHaveAttribute('aria-label', words.oneUnread)
    // The request page belongs to "My requests".
    await expect(sidebar(page, words).getByRole('link', { name: words.tabs.history })).toHaveAttribute(
      'aria-current',
      'page',
    )

    await sidebar(page, words).getByRole('link', { name: words.tabs.notifications }).click()
    await expectTab(page, words, 'notifications', '/user-dashboard/notifications')
    const item = page.getByTestId('notification').filter({ hasText: words.received(number) })
    await expect(item).toHaveAttribute('data-read', 'false')
    await expect(item.getByRole('link', { name: words.received(number) })).toHaveAttribute(
      'href',
      /\/user-dashboard\/requests\/[0-9a-f-]{36}$/,
    )
    await axeAtBothWidths(page)

    await page.getByRole('button', { name: words.markAll }).click()
    await expect(page.getByRole('status').filter({ hasText: words.markedAll })).toBeVisible()
    await expect(item).toHaveAttribute('data-read', 'true')
    await expect(bell(page)).toHaveAttribute('aria-label', words.noUnread)
    await expect(bell(page)).toHaveAttribute('data-unread', '0')
    await expect(page.getByRole('button', { name: words.markAll })).toHaveCount(0)

    // The sidebar, then back and forward through the history.
    await sidebar(page, words).getByRole('link', { name: words.tabs.shipping }).click()
    await expectTab(page, words, 'shipping', '/user-dashboard/shipping')
    await expect(page.getByText(words.shippingLead)).toBeVisible()
    await expect(page.getByText(words.storage)).toBeVisible()
    // No button stands in for something that does not exist yet.
    await expect(page.getByRole('main').getByRole('button')).toHaveCount(0)
    await axeAtBothWidths(page)
    await sidebar(page, words).getByRole('link', { name: words.tabs.profile }).click()
    await expectTab(page, words, 'profile', '/user-dashboard/profile')
    await page.goBack()
    await expectTab(page, words, 'shipping', '/user-dashboard/shipping')
    await page.goBack()
    await expectTab(page, words, 'notifications', '/user-dashboard/notifications')
    await page.goForward()
    await expectTab(page, words, 'shipping', '/user-dashboard/shipping')

    // 375 px: no sidebar; a button opens the menu, which slides in and takes the focus.
    await page.setViewportSize({ width: 375, height: 740 })
    await expect(sidebar(page, words).first()).toBeHidden()
    const summary = page.getByRole('main').locator('summary')
    await expect(summary).toHaveText(words.menu(words.tabs.shipping))
    await summary.click()
    const panel = page.getByRole('navigation', { name: words.area })
    await expect(panel).toBeVisible()
    await expect(panel.getByRole('link', { name: words.tabs.shipping })).toBeFocused()
    // Where the slide-in ends: the panel's padding, against the left edge (read until the
    // transition is over; a busy machine can catch it on its way in).
    await expect.poll(async () => (await panel.boundingBox())?.x).toBe(16)
    await expectNoAxeViolations(page)
    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press('Escape')
    await expect(panel).toBeHidden()
    await expect(summary).toBeFocused()
    // Tab stays inside the open panel.
    await summary.click()
    await expect(panel.getByRole('link', { name: words.tabs.shipping })).toBeFocused()
    // After the current tab (shipping) comes the last, payments: Tab goes round to the close
    // button, Shift+Tab back.
    await page.keyboard.press('Tab')
    await expect(panel.getByRole('link', { name: words.tabs.payments })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(page.getByRole('button', { name: words.closeMenu })).toBeFocused()
    await page.keyboard.press('Shift+Tab')
    await expect(panel.getByRole('link', { name: words.tabs.payments })).toBeFocused()
    // The close button closes it; a link navigates and closes it.
    await page.getByRole('button', { name: words.closeMenu }).click()
    await expect(panel).toBeHidden()
    await summary.click()
    await panel.getByRole('link', { name: words.tabs.history }).click()
    await expect(page).toHaveURL(/\/user-dashboard\/requests$/)
    await expect(panel).toBeHidden()
    await expect(summary).toHaveText(words.menu(words.tabs.history))
    await page.goBack()
    await expect(page).toHaveURL(/\/user-dashboard\/shipping$/)
    await expect(summary).toHaveText(words.menu(words.tabs.shipping))
  })

  test(`profile and address book: save details, the e-mails follow the chosen language; add, make default, edit, delete (${language})`, async ({
    page,
    signInAs,
  }) => {
    test.setTimeout(240_000)
    const email = uniqueEmail(`profile-${language}`)
    await signInAs({ email, name: 'Ana Pérez', language })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/user-dashboard/profile?lang=${language}`)
    await waitForHydration(page)
    await axeAtBothWidths(page)

    // A phone with letters is refused on its field; then the details are saved.
    const other = language === 'es' ? 'en' : 'es'
    await page.getByLabel(words.name, { exact: true }).fill('Ana María Pérez')
    await page.getByLabel(words.phone, { exact: true }).fill('call me')
    await page.getByRole('button', { name: words.save }).click()
    await expect(page.getByText(words.phoneError)).toBeVisible()
    await page.getByLabel(words.phone, { exact: true }).fill('+52 55 1234 5678')
    await page.getByLabel(words.language, { exact: true }).selectOption(other)
    await page.getByRole('button', { name: words.save }).click()
    await expect(page.getByRole('status').filter({ hasText: words.saved })).toBeVisible()
    await expect(page).toHaveURL(/\/user-dashboard\/profile$/)
    await expect(page.getByRole('banner')).toContainText(words.welcome('Ana María Pérez'))
    await expect(page.getByLabel(words.language, { exact: true })).toHaveValue(other)
    // The site stays in the visitor's language; the next e-mail comes in the chosen one.
    await expect(page.locator('html')).toHaveAttribute('lang', language)
    await page.goto(`/user-dashboard?lang=${language}`)
    await page.getByLabel(words.url, { exact: true }).fill('https://jp.mercari.com/item/m55555')
    await page.getByRole('button', { name: words.send }).click()
    await expect(page).toHaveURL(/\/user-dashboard\/requests\/[0-9a-f-]{36}$/)
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/PR-\d{6}/)
    const number = (await page.getByRole('heading', { level: 1 }).textContent())?.match(/PR-\d{6}/)?.[0] ?? ''
    const mail = await latestEmail(email)
    expect(mail.subject.split(' · ')[0]).toBe(WORDS[other].received(number))

    // The address book: the first address is the default.
    await page.goto(`/user-dashboard/profile?lang=${language}`)
    await page.getByRole('link', { name: words.addAddress }).click()
    await expect(page).toHaveURL(/\/user-dashboard\/profile\/addresses\/new$/)
    await axeAtBothWidths(page)
    // Save pressed on the empty form, no field touched: every required field says so at once
    // (recipient, street, city, phone; the country its own message), nothing is sent.
    await page.getByRole('button', { name: words.saveAddress }).click()
    await expect(page.getByText(words.requiredError, { exact: true })).toHaveCount(4)
    await expect(page.getByText(words.countryError, { exact: true })).toBeVisible()
    await expect(page).toHaveURL(/\/user-dashboard\/profile\/addresses\/new$/)
    // Each country's post (ADR 038): the US address, postal code "ABCDE" and no state, is
    // refused in the browser with a message on each field.
    await page.getByLabel(words.recipient, { exact: true }).fill('Ana Pérez')
    await page.getByLabel(words.country, { exact: true }).selectOption('US')
    await page.getByLabel(words.street, { exact: true }).fill('350 Fifth Avenue')
    await page.getByLabel(words.city, { exact: true }).fill('New York')
    await page.getByLabel(words.postalCode, { exact: true }).fill('ABCDE')
    await page.getByLabel(words.courierPhone, { exact: true }).fill('+1 212 736 3100')
    await page.getByRole('button', { name: words.saveAddress }).click()
    await expect(page.getByText(words.usPostalError)).toBeVisible()
    await expect(page.getByText(words.usStateError)).toBeVisible()
    await expect(page).toHaveURL(/\/user-dashboard\/profile\/addresses\/new$/)
    const fillAddress = async (city: string) => {
      await page.getByLabel(words.recipient, { exact: true }).fill('Ana Pérez')
      await page.getByLabel(words.country, { exact: true }).selectOption('MX')
      await page.getByLabel(words.street, { exact: true }).fill('Av. Insurgentes Sur 1234, depto. 5')
      await page.getByLabel(words.city, { exact: true }).fill(city)
      await page.getByLabel(words.region, { exact: true }).fill('CDMX')
      await page.getByLabel(words.postalCode, { exact: true }).fill('03100')
      await page.getByLabel(words.courierPhone, { exact: true }).fill('+52 55 1234 5678')
    }
    await fillAddress('Ciudad de México')
    await page.getByRole('button', { name: words.saveAddress }).click()
    await expect(page.getByRole('status').filter({ hasText: words.added })).toBeVisible()
    const cards = page.getByTestId('address')
    await expect(cards).toHaveCount(1)
    await expect(cards.first()).toContainText(words.defaultBadge)
    await expect(cards.first()).toContainText(words.countryName)

    // A second one, as the new default.
    await page.getByRole('link', { name: words.addAddress }).click()
    await fillAddress('Puebla')
    await page.getByLabel(words.makeDefaultBox).check()
    await page.getByRole('button', { name: words.saveAddress }).click()
    await expect(page.getByRole('status').filter({ hasText: words.added })).toBeVisible()
    await expect(cards).toHaveCount(2)
    await expect(cards.first()).toContainText('Puebla')
    await expect(cards.first()).toContainText(words.defaultBadge)
    await axeAtBothWidths(page)

    // Make the first one the default again, then edit it.
    await page.getByRole('button', { name: words.makeDefault('Ana Pérez', 'Ciudad de México') }).click()
    await expect(page.getByRole('status').filter({ hasText: words.defaultChanged })).toBeVisible()
    await expect(cards.first()).toContainText('Ciudad de México')
    await expect(cards.first()).toContainText(words.defaultBadge)
    await page.getByRole('link', { name: words.edit('Ana Pérez', 'Ciudad de México') }).click()
    await expect(page.getByLabel(words.country, { exact: true })).toHaveValue('MX')
    await page.getByLabel(words.street, { exact: true }).fill('Calle Nueva 99')
    await page.getByRole('button', { name: words.saveAddress }).click()
    await expect(page.getByRole('status').filter({ hasText: words.addressSaved })).toBeVisible()
    await expect(cards.first()).toContainText('Calle Nueva 99')

    // Delete asks first; the other address becomes the default.
    await page.getByRole('link', { name: words.deleteLink('Ana Pérez', 'Ciudad de México') }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.deleteTitle)
    await axeAtBothWidths(page)
    await page.getByRole('button', { name: words.deleteConfirm }).click()
    await expect(page.getByRole('status').filter({ hasText: words.deleted })).toBeVisible()
    await expect(cards).toHaveCount(1)
    await expect(cards.first()).toContainText('Puebla')
    await expect(cards.first()).toContainText(words.defaultBadge)
  })
}

/** Full-page screenshots of the new pages at the three widths, kept with the test's output. */
test('screenshots of the customer area at 375, 800 and 1280 px', async ({ page, signInAs }, testInfo) => {
  test.slow()
  await signInAs({ email: uniqueEmail('shots'), language: 'es' })
  await page.goto('/user-dashboard?lang=es')
  await waitForHydration(page)
  await page.getByLabel('Enlace al producto', { exact: true }).fill('https://jp.mercari.com/item/m1')
  await page.getByRole('button', { name: 'Enviar solicitud' }).click()
  await expect(page).toHaveURL(/\/user-dashboard\/requests\/[0-9a-f-]{36}$/)
  await page.goto('/user-dashboard/profile/addresses/new')
  await page.getByLabel('Nombre completo de quien recibe', { exact: true }).fill('Ana Pérez')
  await page.getByLabel('País', { exact: true }).selectOption('CL')
  await page
    .getByLabel('Calle, número y departamento', { exact: true })
    .fill('Av. Providencia 1234, depto. 56')
  await page.getByLabel('Ciudad', { exact: true }).fill('Santiago')
  await page.getByLabel('Teléfono para el repartidor', { exact: true }).fill('+56 9 1234 5678')
  await page.getByRole('button', { name: 'Guardar dirección' }).click()
  await expect(page).toHaveURL(/\/user-dashboard\/profile$/)
  const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true })
  for (const width of [375, 800, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    for (const [name, path] of [
      ['submit', '/user-dashboard'],
      ['notifications', '/user-dashboard/notifications'],
      ['profile', '/user-dashboard/profile'],
      ['address-new', '/user-dashboard/profile/addresses/new'],
      ['shipping', '/user-dashboard/shipping'],
    ] as const) {
      await page.goto(path)
      await waitForHydration(page)
      await shot(`${name}-${width}`)
    }
    if (width === 375) {
      await page.getByRole('main').locator('summary').click()
      await expect(page.getByRole('button', { name: 'Cerrar el menú' })).toBeVisible()
      // The panel slides in: the picture is taken once its animations have ended.
      await page
        .getByRole('main')
        .locator('details')
        .evaluate((menu) =>
          Promise.all(menu.getAnimations({ subtree: true }).map((animation) => animation.finished)),
        )
      await page.screenshot({ path: testInfo.outputPath('menu-open-375.png') })
    }
    // Nothing scrolls sideways at any width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0)
  }
})
