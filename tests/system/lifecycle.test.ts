import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterEach, expect, test } from 'vitest'
import { runningEmbeddedUrl } from '#server/embedded-postgres.ts'
import { startServer } from './server-process.ts'

// The process lifecycle on the embedded PostgreSQL: crash recovery, one owner per data
// directory, graceful shutdown. Each test gets its own data directory.
const dataDirs: string[] = []
function newDataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-life-'))
  dataDirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

const embedded = (dataDir: string) => ({ DATABASE_URL: '', DATA_DIR: dataDir })

/** Connects to the embedded cluster the way an operator would: port from postmaster.pid. */
async function query(dataDir: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: runningEmbeddedUrl(dataDir) })
  await client.connect()
  try {
    return (await client.query(sql, params)).rows
  } finally {
    await client.end()
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

test('after kill -9 the next start stops the orphaned PostgreSQL and every committed row is there', async () => {
  const dataDir = newDataDir()
  const first = await startServer(embedded(dataDir))
  await query(dataDir, `UPDATE settings SET value = '777' WHERE key = 'serviceFeeJpy'`)
  const postgresPid = Number(
    fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
  )

  await first.stop('SIGKILL')
  expect(isAlive(postgresPid)).toBe(true)

  const second = await startServer(embedded(dataDir))
  try {
    expect(second.output()).toContain('left running by a previous crash')
    expect(isAlive(postgresPid)).toBe(false)
    expect(await query(dataDir, `SELECT value FROM settings WHERE key = 'serviceFeeJpy'`)).toEqual([
      { value: 777 },
    ])
    const html = await (await fetch(`${second.url}/?lang=en`)).text()
    expect(html).toContain('JPY\u00a0777')
  } finally {
    expect(await second.stop()).toBe(0)
  }
})

test('a second start on a data directory in use refuses with a clear message', async () => {
  const dataDir = newDataDir()
  const first = await startServer(embedded(dataDir))
  try {
    await expect(startServer(embedded(dataDir))).rejects.toThrow(
      new RegExp(
        `exited with 1[\\s\\S]*Another storefront process \\(pid ${first.child.pid}\\) is already using`,
      ),
    )
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200)
  } finally {
    await first.stop()
  }
})

test('SIGTERM finishes the request in flight, stops PostgreSQL and exits 0', async () => {
  const dataDir = newDataDir()
  const server = await startServer(embedded(dataDir))
  const { port } = new URL(server.url)

  // A request whose body is still arriving when the signal comes: /api parses JSON bodies, so
  // the request stays in flight until the last byte.
  const socket = net.connect(Number(port), '127.0.0.1')
  const closed = new Promise((resolve) => socket.once('close', resolve))
  await new Promise((resolve) => socket.once('connect', resolve))
  let reply = ''
  socket.on('data', (chunk) => {
    reply += chunk.toString()
  })
  const body = '{"a":"b"}'
  socket.write(
    `POST /api/in-flight HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 4)}`,
  )
  await new Promise((resolve) => setTimeout(resolve, 300))
  server.child.kill('SIGTERM')
  // The signal is taken (the drain has begun) and the half-sent request is still unanswered.
  await expect.poll(() => server.logs().some((line) => line.msg === 'shutting down')).toBe(true)
  expect(reply).toBe('')
  socket.end(body.slice(4))
  await closed

  expect(reply).toMatch(/^HTTP\/1\.1 404/)
  expect(reply).toContain('"code":"not_found"')
  expect(await server.exited).toBe(0)
  expect(server.output()).toContain('"msg":"stopped"')
  expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false)
  expect(fs.existsSync(path.join(dataDir, 'storefront.lock'))).toBe(false)
})

/** One raw HTTP/1.1 request on its own connection; resolves with what came back, or the error. */
function rawRequest(port: number, path: string, keepAlive = false) {
  return new Promise<{ reply: string; error: string | null; socket: net.Socket }>((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let reply = ''
    let settled = false
    const done = (error: string | null) => {
      if (settled) return
      settled = true
      resolve({ reply, error, socket })
    }
    socket.on('data', (chunk) => {
      reply += chunk.toString()
      if (keepAlive && reply.includes('\r\n\r\n')) done(null)
    })
    socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message))
    socket.on('close', () => done(null))
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: ${keepAlive ? 'keep-alive' : 'close'}\r\n\r\n`,
    )
  })
}

test('SIGTERM: /readyz says 503 at once, every connection already waiting is answered, an idle keep-alive connection does not hold the exit', async () => {
  const dataDir = newDataDir()
  // A drain long enough that a busy machine still answers /readyz before the port closes.
  const server = await startServer({ ...embedded(dataDir), SHUTDOWN_DRAIN_SECONDS: '5' })
  const port = Number(new URL(server.url).port)

  // An idle keep-alive connection (the server would keep it 65 s).
  const idle = await rawRequest(port, '/healthz', true)
  expect(idle.reply).toMatch(/^HTTP\/1\.1 200/)

  // A burst on a cold server, the signal in the middle of it.
  const burst = Array.from({ length: 40 }, (_, index) =>
    rawRequest(port, index % 2 ? '/healthz' : '/store-guide'),
  )
  const started = Date.now()
  server.child.kill('SIGTERM')
  const readiness = await rawRequest(port, '/readyz')
  const answers = await Promise.all(burst)

  expect(readiness.reply).toMatch(/^HTTP\/1\.1 503/)
  expect(
    answers.filter((answer) => !/^HTTP\/1\.1 200/.test(answer.reply)).map((answer) => answer.error),
  ).toEqual([])
  expect(await server.exited).toBe(0)
  // The drain, then the requests in flight: well short of the idle connection's 65 s keep-alive.
  expect(Date.now() - started).toBeLessThan(30_000)
  idle.socket.destroy()
})
