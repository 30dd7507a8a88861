import pino from 'pino'
import { formatLogLine } from './log-format.ts'

export type Logger = pino.Logger

/**
 * One logger per process, children per request. JSON lines on stdout, which is what log
 * collectors, the tests and CI read; when stdout is a terminal (`npm start`, `npm run dev` in a
 * shell), one readable line per entry instead (server/log-format.ts), coloured unless `NO_COLOR`
 * is set.
 */
export function createLogger(
  level: string = process.env.LOG_LEVEL ?? 'info',
  { readable = process.stdout.isTTY === true }: { readable?: boolean } = {},
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'storefront' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      remove: true,
    },
  }
  if (!readable) return pino(options)
  const color = !process.env.NO_COLOR
  // Synchronous, like pino's own stdout destination: a line is on the terminal before the next
  // statement runs, so the start-up banner (console.log) really comes after the last log line.
  return pino(options, { write: (line: string) => process.stdout.write(formatLogLine(line, { color })) })
}

// Query parameters that carry credentials: reset and verification tokens, an OAuth callback's
// code and state.
// `hub.verify_token`: WhatsApp's subscription check (docs/decisions/049) carries our verify token.
const SECRET_PARAMS = new Set(['token', 'code', 'state', 'hub.verify_token'])

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
