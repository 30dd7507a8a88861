import { AppError } from '#core/shared/errors.ts'

/** How an adapter reaches its provider: base URL, fetch (replaceable in tests), time limit per call. */
export type ProviderHttp = {
  /** For messages: 'PayPal', 'Stripe'. */
  label: string
  /** Without trailing slash; paths are appended as they are (a base path is kept). */
  apiUrl: string
  fetch: typeof fetch
  timeoutMs: number
}

export type ProviderAnswer = { status: number; body: unknown }

/** Network failure, timeout, 429, 5xx or an unreadable answer: try again later. */
export function providerDown(http: ProviderHttp, what: string, detail: string): AppError {
  return new AppError('upstream_failed', `${http.label} ${what}: ${detail}`, {
    reason: 'paymentProviderDown',
  })
}

/** A 4xx the adapter does not handle: retrying the same call will not help. */
export function providerRefused(http: ProviderHttp, what: string, status: number, detail: string): AppError {
  return new AppError(
    'upstream_failed',
    `${http.label} refused ${what} (${status}${detail ? `: ${detail}` : ''})`,
    {
      reason: 'paymentRefused',
    },
  )
}

/**
 * One call within the time limit (connection and body alike). Returns 2xx and 4xx answers with
 * their JSON body (null when empty or not JSON) for the adapter to judge; throws
 * `paymentProviderDown` for the rest. Headers are never part of a message (they carry secrets).
 */
export async function callProvider(
  http: ProviderHttp,
  method: 'GET' | 'POST',
  path: string,
  init: { headers: Record<string, string>; body?: string },
): Promise<ProviderAnswer> {
  const what = `${method} ${path.split('?')[0]}`
  let status: number
  let text: string
  try {
    const response = await http.fetch(`${http.apiUrl}${path}`, {
      method,
      headers: init.headers,
      body: init.body,
      redirect: 'error',
      signal: AbortSignal.timeout(http.timeoutMs),
    })
    status = response.status
    text = await response.text()
  } catch (error) {
    const name = (error as Error).name
    const detail =
      name === 'TimeoutError' || name === 'AbortError'
        ? `no answer within ${http.timeoutMs} ms`
        : `unreachable (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message})`
    throw providerDown(http, what, detail)
  }
  if (status === 429 || status >= 500) throw providerDown(http, what, `answered ${status}`)
  let body: unknown = null
  if (text) {
    try {
      body = JSON.parse(text)
    } catch {
      if (status < 300) throw providerDown(http, what, `answered ${status} with a body that is not JSON`)
    }
  }
  if (status < 200 || (status >= 300 && status < 400)) throw providerDown(http, what, `answered ${status}`)
  return { status, body }
}

/** Header names in lower case (Node gives them so; other callers may not). */
export function lowerCaseHeaders(headers: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') result[name.toLowerCase()] = value
  }
  return result
}

/** Whole yen from a provider's figure, or null for anything else (another currency, decimals). */
export function wholeYen(currency: string | null, amount: number | string | null | undefined): number | null {
  if (currency !== 'JPY' || amount === null || amount === undefined) return null
  const text = String(amount)
  if (!/^\d+(\.0+)?$/.test(text)) return null
  const yen = Number.parseInt(text, 10)
  return Number.isSafeInteger(yen) ? yen : null
}

/** The checks every createCheckout makes before calling out. */
export function checkCheckoutInput(input: {
  amountJpy: number
  returnUrl: string
  cancelUrl: string
  idempotencyKey: string
  invoiceId: string
}): void {
  if (!Number.isSafeInteger(input.amountJpy) || input.amountJpy <= 0) {
    throw new AppError(
      'invalid',
      `amountJpy must be a whole number of yen above zero, not ${input.amountJpy}`,
    )
  }
  for (const [name, url] of [
    ['returnUrl', input.returnUrl],
    ['cancelUrl', input.cancelUrl],
  ] as const) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      throw new AppError('invalid', `${name} must be an http(s) URL`)
    }
  }
  if (!input.idempotencyKey || input.idempotencyKey.length > 100) {
    throw new AppError('invalid', 'idempotencyKey must be 1 to 100 characters')
  }
  if (!input.invoiceId) throw new AppError('invalid', 'invoiceId is required')
}

/** A provider reference goes into a URL path: only the characters real ones use (no `..`, no `/`). */
export function checkRef(ref: string, pattern: RegExp, label: string): string {
  if (!pattern.test(ref)) throw new AppError('invalid', `Not a ${label} reference`)
  return ref
}
