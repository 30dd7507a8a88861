import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from 'vitest'
import { createTestDatabase } from '#tests/db.ts'
import { startServer } from './server-process.ts'

// The shutdown drain by default (issue 33): a balancer with HAProxy's default health check
// (`inter 2s`, `fall 3`) on /readyz marks the process down before its port closes, and nothing
// sent to it before that fails.

/** One GET on a connection of its own: the status, or the connection error's code. */
function probe(port: number, pathname: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: pathname, agent: false, timeout: 5000 },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    request.on('timeout', () => request.destroy(new Error('timeout')))
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test('SIGTERM behind HAProxy defaults (check /readyz every 2 s, down after 3 failures): marked down while the port still serves, no request lost', async () => {
  const database = await createTestDatabase()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-drain-'))
  // No SHUTDOWN_DRAIN_SECONDS: the default.
  const server = await startServer({ DATABASE_URL: database.url, DATA_DIR: dataDir })
  const port = Number(new URL(server.url).port)
  try {
    // The balancer: a check, then one every 2 s; three failures in a row and it is down.
    const inter = 2000
    const fall = 3
    expect(await probe(port, '/readyz')).toBe(200)
    const signalledAt = performance.now()
    // The worst moment: just after a check passed, so the first 503 is seen a whole interval later.
    server.child.kill('SIGTERM')

    let downAt: number | null = null
    const balancer = (async () => {
      let failures = 0
      while (downAt === null) {
        await sleep(inter)
        const status = await probe(port, '/readyz')
        failures = status === 200 ? 0 : failures + 1
        if (failures >= fall) downAt = performance.now()
      }
    })()
    // Traffic the balancer keeps sending until it marks the process down, on new connections.
    const answers: (number | string)[] = []
    while (downAt === null) {
      answers.push(await probe(port, '/healthz'))
      await sleep(100)
    }
    await balancer
    // Still serving when it was marked down: the port closes only after the drain.
    const afterDown = await probe(port, '/healthz')

    expect(answers.length).toBeGreaterThan(20)
    expect(answers.filter((answer) => answer !== 200)).toEqual([])
    expect(afterDown).toBe(200)
    expect(((downAt ?? 0) - signalledAt) / 1000).toBeLessThan(8)
    expect(await server.exited).toBe(0)
    expect(server.logs().find((line) => line.msg === 'shutting down')).toMatchObject({ drainSeconds: 8 })
  } finally {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})
