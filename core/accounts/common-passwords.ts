import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

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
