import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware } from 'better-auth/api'

/**
 * The most common passwords are refused (OWASP ASVS 6.2.4 asks for at least the top 3,000).
 * The list is zxcvbn's: 49,233 passwords from leaked-password corpora, most frequent first,
 * all lower case (@zxcvbn-ts/language-common, pinned). It is read once, on the first check.
 */
const LIST = '@zxcvbn-ts/language-common/src/passwords.json'

let loading: Promise<ReadonlySet<string>> | null = null

function commonPasswords(): Promise<ReadonlySet<string>> {
  loading ??= readFile(createRequire(import.meta.url).resolve(LIST), 'utf8')
    .then((json) => new Set((JSON.parse(json) as string[]).map(normalize)))
    .catch((error: unknown) => {
      loading = null
      throw error
    })
  return loading
}

const normalize = (password: string) => password.trim().toLowerCase()

/** Whether the password is on the list, ignoring case and surrounding spaces. */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(normalize(password))
}

/** How many passwords the list holds (for tests and the decision record). */
export async function commonPasswordCount(): Promise<number> {
  return (await commonPasswords()).size
}

export const COMMON_PASSWORD_ERROR = {
  code: 'PASSWORD_TOO_COMMON',
  message: 'This password is too common. Choose one that is harder to guess.',
} as const

/** Where better-auth takes a new password, and the body field that carries it. */
const NEW_PASSWORD_FIELD: Record<string, 'password' | 'newPassword'> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
  '/admin/create-user': 'password',
  '/admin/set-user-password': 'newPassword',
}

/**
 * Refuses a common password before the endpoint runs, so nothing is written and a reset token
 * is not spent; applies to the JSON API and our forms alike.
 */
export function commonPasswordsPlugin() {
  return {
    id: 'common-passwords',
    hooks: {
      before: [
        {
          matcher: (context) => Boolean(context.path && Object.hasOwn(NEW_PASSWORD_FIELD, context.path)),
          handler: createAuthMiddleware(async (ctx) => {
            const field = NEW_PASSWORD_FIELD[ctx.path]
            const password = field ? (ctx.body as Record<string, unknown> | undefined)?.[field] : undefined
            if (typeof password !== 'string') return
            // A too-short one gets better-auth's own PASSWORD_TOO_SHORT, which says what to do.
            if (password.length < ctx.context.password.config.minPasswordLength) return
            if (await isCommonPassword(password)) throw APIError.from('BAD_REQUEST', COMMON_PASSWORD_ERROR)
          }),
        },
      ],
    },
    $ERROR_CODES: { PASSWORD_TOO_COMMON: COMMON_PASSWORD_ERROR },
  } satisfies BetterAuthPlugin
}
