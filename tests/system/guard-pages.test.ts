import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import en from '#app/locales/en.ts'
import es from '#app/locales/es.ts'
import {
  insertPasswordAccount,
  insertSession,
  SESSION_COOKIE,
  signedSessionCookie,
} from '#tests/support/accounts.ts'
import { type ServerProcess, SYSTEM_TEST_SECRET, startAppOnTestDatabase } from './server-process.ts'

// Every guarded address answers a person with a page, through the real server: a browser
// (Accept: text/html) refused by a branch's guard gets "Login Required" (401, with its Sign In
// button) or "Admin Access Required" with the role (403), translated, inside the site's header
// and footer, whether the address is a page or a file (a photo, "download my data", the CSV);
// an <img> or a script gets a short text or JSON with the same status; whoever may enter gets
// the file or the redirect as before.

let server: ServerProcess
const cookies = { customer: '', moderator: '', admin: '' }

beforeAll(async () => {
  let database: Awaited<ReturnType<typeof startAppOnTestDatabase>>['database']
  ;({ server, database } = await startAppOnTestDatabase())
  for (const role of ['customer', 'moderator', 'admin'] as const) {
    const account = await insertPasswordAccount(database.pool, {
      email: `${role}@example.com`,
      name: role,
      role: role === 'customer' ? 'user' : role,
    })
    const token = await insertSession(database.pool, account.id)
    cookies[role] = `${SESSION_COOKIE}=${signedSessionCookie(token, SYSTEM_TEST_SECRET)}`
  }
})

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
const IMAGE = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'

type Who = 'anonymous' | keyof typeof cookies

function get(path: string, who: Who, accept: string, language: 'es' | 'en' = 'en') {
  const cookie = [`lang=${language}`, who === 'anonymous' ? '' : cookies[who]].filter(Boolean).join('; ')
  return fetch(`${server.url}${path}`, { headers: { accept, cookie }, redirect: 'manual' })
}

const id = randomUUID()
const photoId = randomUUID()
const PHOTO = `/user-dashboard/package-photos/${photoId}`
const FILES = {
  '/dashboard': 'account',
  '/account/export': 'account',
  [`/user-dashboard/requests/${id}/photos/${photoId}`]: 'customer',
  [PHOTO]: 'customer',
  [`${PHOTO}/thumb`]: 'customer',
  [`/user-dashboard/shipments/${id}/box-photo`]: 'customer',
  [`/user-dashboard/shipments/${id}/box-photo/thumb`]: 'customer',
  '/admin-dashboard/analytics.csv?preset=this_month': 'admin',
  [`/admin-dashboard/requests/${id}/photos/${photoId}`]: 'staff',
} as const

/** The guard page, as a browser receives it: its heading, text, button, and the site around it. */
async function expectGuardPage(
  answer: Response,
  {
    status,
    language,
    role,
    redirectTo,
  }: { status: 401 | 403; language: 'es' | 'en'; role?: string; redirectTo?: string },
) {
  const t = { es, en }[language].session
  expect(answer.status).toBe(status)
  expect(answer.headers.get('content-type')).toMatch(/^text\/html/)
  // Never kept by a cache without asking (anonymous pages: no-cache; a signed-in one's: private, no-store).
  expect(answer.headers.get('cache-control')).toMatch(/no-cache|no-store/)
  const html = await answer.text()
  expect(html).toContain(`<html lang="${language}"`)
  // Inside the site: the header (its navigation) and the footer.
  expect(html).toMatch(/<header\b/)
  expect(html).toMatch(/<footer\b/)
  if (status === 401) {
    expect(html).toContain(`>${t.guards.loginRequired}</h1>`)
    expect(html).toContain(`href="/auth?redirectTo=${encodeURIComponent(redirectTo ?? '')}"`)
    expect(html).toContain(`>${t.guards.signIn}</a>`)
  } else {
    expect(html).toContain(`>${t.guards.adminRequired}</h1>`)
    expect(html).toContain(t.guards.currentRole.replace('{{role}}', role ?? ''))
  }
}

describe('a browser refused by the guard gets the guard page', () => {
  for (const [path, branch] of Object.entries(FILES)) {
    test(`${path}: anonymous, Login Required (es and en)`, async () => {
      for (const language of ['es', 'en'] as const) {
        await expectGuardPage(await get(path, 'anonymous', BROWSER, language), {
          status: 401,
          language,
          redirectTo: path,
        })
      }
    })
    if (branch === 'admin' || branch === 'staff') {
      test(`${path}: a customer${branch === 'admin' ? ' and a moderator' : ''}, Admin Access Required with the role`, async () => {
        await expectGuardPage(await get(path, 'customer', BROWSER, 'es'), {
          status: 403,
          language: 'es',
          role: es.session.roles.user,
        })
        if (branch === 'admin') {
          await expectGuardPage(await get(path, 'moderator', BROWSER), {
            status: 403,
            language: 'en',
            role: en.session.roles.moderator,
          })
        }
      })
    }
  }

  test('HEAD of a refused file: the guard status, no body', async () => {
    const answer = await fetch(`${server.url}/account/export`, {
      method: 'HEAD',
      headers: { accept: BROWSER },
    })
    expect(answer.status).toBe(401)
  })
})

describe('a client that is not shown a page gets the same status in a few words', () => {
  test('an <img> without a session: 401 as translated text, never stored', async () => {
    for (const path of [PHOTO, `/user-dashboard/shipments/${id}/box-photo/thumb`, '/account/export']) {
      const answer = await get(path, 'anonymous', IMAGE, 'es')
      expect(answer.status, path).toBe(401)
      expect(answer.headers.get('content-type'), path).toBe('text/plain; charset=utf-8')
      expect(answer.headers.get('cache-control'), path).toBe('private, no-store')
      expect(await answer.text(), path).toBe(es.errors.codes.unauthorized)
    }
  })

  test('a script asking for JSON: the API shape, 401 without a session, 403 for the wrong role', async () => {
    const anonymous = await get('/account/export', 'anonymous', 'application/json')
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toEqual({
      error: { code: 'unauthorized', message: en.errors.codes.unauthorized },
    })
    const moderator = await get('/admin-dashboard/analytics.csv', 'moderator', 'application/json')
    expect(moderator.status).toBe(403)
    expect(await moderator.json()).toEqual({
      error: { code: 'forbidden', message: en.errors.codes.forbidden },
    })
    const customer = await get(`/admin-dashboard/requests/${id}/photos/${photoId}`, 'customer', '*/*')
    expect(customer.status).toBe(403)
    expect(await customer.text()).toBe(en.errors.codes.forbidden)
  })

  test('a page stays a page for any client: /dashboard without a session is the HTML guard page', async () => {
    const answer = await get('/dashboard', 'anonymous', '*/*')
    expect(answer.status).toBe(401)
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/)
  })
})

describe('whoever may enter gets what they got before, from a browser too', () => {
  test('/dashboard sends a customer to their area and an admin to theirs', async () => {
    const customer = await get('/dashboard', 'customer', BROWSER)
    expect(customer.status).toBe(302)
    expect(customer.headers.get('location')).toBe('/user-dashboard')
    const admin = await get('/dashboard', 'admin', BROWSER)
    expect(admin.headers.get('location')).toBe('/admin-dashboard')
  })

  test('"download my data" opened in the browser is the JSON attachment', async () => {
    const answer = await get('/account/export', 'customer', BROWSER)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="my-data.json"')
    expect(((await answer.json()) as { profile?: { email?: string } }).profile?.email).toBe(
      'customer@example.com',
    )
  })

  test('the CSV opened by an admin is the CSV', async () => {
    const answer = await get('/admin-dashboard/analytics.csv?preset=this_month', 'admin', BROWSER)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8')
  })

  test('a photo that is not theirs (or not there) is the 404 of a missing photo, for staff too', async () => {
    for (const [path, who] of [
      [PHOTO, 'customer'],
      [`/user-dashboard/shipments/${id}/box-photo`, 'customer'],
      [`/admin-dashboard/requests/${id}/photos/${photoId}`, 'moderator'],
    ] as const) {
      const answer = await get(path, who, IMAGE)
      expect(answer.status, path).toBe(404)
      expect(answer.headers.get('content-type'), path).toBe('text/plain; charset=utf-8')
    }
  })
})
