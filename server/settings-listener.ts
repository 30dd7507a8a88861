import pg from 'pg'
import { SETTINGS_CHANNEL } from '#core/settings/settings-service.ts'
import type { Logger } from './logger.ts'

/**
 * Keeps one connection LISTENing for settings changes made by any app process, and reconnects
 * after the database restarts. After a reconnect the cache is dropped too: a change may have
 * been missed while the connection was down.
 */
export function listenForSettingsChanges({
  databaseUrl,
  onChange,
  logger,
}: {
  databaseUrl: string
  onChange: () => void
  logger: Pick<Logger, 'warn' | 'debug'>
}) {
  let client: pg.Client | null = null
  let closed = false
  let retry: NodeJS.Timeout | null = null
  let attempt = 0

  async function connect() {
    const next = new pg.Client({ connectionString: databaseUrl })
    next.on('notification', (message) => {
      if (message.channel === SETTINGS_CHANNEL) onChange()
    })
    next.on('error', (error) => {
      logger.warn({ err: error }, 'settings listener connection failed')
      scheduleReconnect()
    })
    try {
      await next.connect()
      await next.query(`LISTEN ${SETTINGS_CHANNEL}`)
      if (closed) {
        await next.end()
        return
      }
      client = next
      if (attempt > 0) onChange()
      attempt = 0
    } catch (error) {
      logger.warn({ err: error }, 'settings listener could not connect')
      await next.end().catch(() => undefined)
      scheduleReconnect()
    }
  }

  function scheduleReconnect() {
    if (closed || retry) return
    client?.end().catch(() => undefined)
    client = null
    attempt += 1
    const delay = Math.min(30_000, 250 * 2 ** Math.min(attempt, 7))
    retry = setTimeout(() => {
      retry = null
      void connect()
    }, delay)
    retry.unref()
  }

  void connect()
  return {
    async close() {
      closed = true
      if (retry) clearTimeout(retry)
      await client?.end().catch(() => undefined)
    },
  }
}
