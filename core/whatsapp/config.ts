/**
 * WhatsApp Business Cloud API settings (docs/decisions/049). All four of WHATSAPP_PHONE_NUMBER_ID,
 * WHATSAPP_ACCESS_TOKEN, WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN, or none: none hides the
 * option and sends nothing; some but not all stops the start with each missing name (as
 * core/payments/provider.ts does). WHATSAPP_API_URL defaults to Meta's Graph API and must be
 * https, or http on loopback (the tests' stand-in): the token travels with every call.
 */
export type WhatsAppConfig = {
  apiUrl: string
  phoneNumberId: string
  accessToken: string
  appSecret: string
  verifyToken: string
  timeoutMs: number
}

export const WHATSAPP_DEFAULT_API_URL = 'https://graph.facebook.com/v23.0'

const REQUIRED = [
  'WHATSAPP_PHONE_NUMBER_ID',
  'WHATSAPP_ACCESS_TOKEN',
  'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
] as const

export function whatsappConfigFromEnv(env: NodeJS.ProcessEnv): WhatsAppConfig | null {
  const value = (name: string) => env[name]?.trim() || null
  const problems: string[] = []
  const set = REQUIRED.filter((name) => value(name) !== null)
  const apiUrl = (value('WHATSAPP_API_URL') ?? WHATSAPP_DEFAULT_API_URL).replace(/\/+$/, '')
  if (!isSafeApiUrl(apiUrl)) {
    problems.push('WHATSAPP_API_URL: must be an https:// address (http:// only on localhost), without query')
  }
  const phoneNumberId = value('WHATSAPP_PHONE_NUMBER_ID')
  if (phoneNumberId !== null && !/^\d{5,30}$/.test(phoneNumberId)) {
    problems.push('WHATSAPP_PHONE_NUMBER_ID: must be the numeric phone number id from Meta')
  }
  const verifyToken = value('WHATSAPP_VERIFY_TOKEN')
  if (verifyToken !== null && verifyToken.length < 16) {
    problems.push('WHATSAPP_VERIFY_TOKEN: must be at least 16 characters')
  }
  if (set.length > 0 && set.length < REQUIRED.length) {
    for (const name of REQUIRED.filter((name) => value(name) === null)) {
      problems.push(`${name}: required with ${set.join(', ')} (WhatsApp needs all four)`)
    }
  }
  if (problems.length > 0)
    throw new Error(`Invalid environment:\n${problems.map((p) => `  ${p}`).join('\n')}`)
  if (set.length === 0) return null
  return {
    apiUrl,
    phoneNumberId: phoneNumberId ?? '',
    accessToken: value('WHATSAPP_ACCESS_TOKEN') ?? '',
    appSecret: value('WHATSAPP_APP_SECRET') ?? '',
    verifyToken: verifyToken ?? '',
    timeoutMs: 10_000,
  }
}

function isSafeApiUrl(value: string): boolean {
  if (!URL.canParse(value)) return false
  const url = new URL(value)
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  return (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) && !url.search && !url.hash
}
