import pino from 'pino'

export type Logger = pino.Logger

/** JSON lines on stdout; one logger per process, children per request. */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service: 'storefront' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      remove: true,
    },
  })
}

// Query parameters that carry credentials: reset and verification tokens, an OAuth callback's
// code and state.
const SECRET_PARAMS = new Set(['token', 'code', 'state'])

/**
 * A request URL as it may be logged: the values of credential parameters and the token in a
 * password-reset link's path (`/api/auth/reset-password/<token>`) are replaced, so the logs do not
 * hold live links.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?')
  const pathname = queryStart === -1 ? url : url.slice(0, queryStart)
  const redactedPath = pathname.replace(/(\/reset-password\/)[^/]+/gi, '$1[redacted]')
  if (queryStart === -1) return redactedPath
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((part) => {
      const name = part.split('=', 1)[0] ?? ''
      return SECRET_PARAMS.has(decodeName(name).toLowerCase()) ? `${name}=[redacted]` : part
    })
    .join('&')
  return `${redactedPath}?${query}`
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '))
  } catch {
    return name
  }
}
