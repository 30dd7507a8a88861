import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createTestDatabase, onFileCleanup } from '#tests/db.ts'

/** The auth secret every server under test signs with (so a test can sign a session cookie). */
export const SYSTEM_TEST_SECRET = 'system-test-secret-system-test-secret-0123'

export type ServerProcess = {
  url: string
  child: ChildProcess
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string
  /** JSON log lines printed so far. */
  logs: () => Record<string, unknown>[]
  exited: Promise<number | null>
  stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

/** Starts the production server (`node server/main.ts`) the way `npm start` does, on a free port. */
export function startServer(env: Record<string, string>): Promise<ServerProcess> {
  if (!fs.existsSync(path.resolve('build/server/index.js'))) {
    throw new Error(
      'The system tests run the production build, and build/server/index.js is missing: run `npm run build` first (`npm run test:db` does it by itself).',
    )
  }
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      LOG_LEVEL: 'info',
      AUTH_SECRET: SYSTEM_TEST_SECRET,
      // E-mails and forwards are background jobs: idle workers look for them twice a second.
      JOBS_POLL_INTERVAL_SECONDS: '0.5',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

  const server: Omit<ServerProcess, 'url'> = {
    child,
    output: () => output,
    logs: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }

  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server did not start within 60 s:\n${output}`))
    }, 60_000)
    const onData = () => {
      const match = /Storefront running at (http:\/\/\S+)/.exec(output)
      if (!match?.[1]) return
      clearTimeout(timeout)
      child.stdout?.off('data', onData)
      resolve({ ...server, url: match[1].replace('localhost', '127.0.0.1') })
    }
    child.stdout?.on('data', onData)
    void exited.then((code) => {
      clearTimeout(timeout)
      reject(new Error(`server exited with ${code} before listening:\n${output}`))
    })
  })
}

/**
 * Extracts the nonces of every script and inline style, and the CSP header's nonce (script-src
 * and style-src name the same one; if they differ, `inHeader` says so).
 */
export function nonces(html: string, csp: string | null) {
  const inHtml = [...html.matchAll(/<(?:script|style)[^>]*\snonce="([^"]+)"/g)].map((match) => match[1])
  const inPolicy = new Set([...(csp ?? '').matchAll(/'nonce-([^']+)'/g)].map((match) => match[1]))
  const inHeader = inPolicy.size > 1 ? `different nonces: ${[...inPolicy].join(' ')}` : [...inPolicy][0]
  return { inHtml, inHeader }
}

/** A port free on loopback right now, for a server whose APP_URL must be known before it starts. */
export async function freePort(): Promise<number> {
  const net = await import('node:net')
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

/**
 * The production server on a test database of its own (see createTestDatabase) and a temporary
 * data directory, on a port chosen before the start: sign-in checks that requests come from
 * APP_URL. Stopped and cleaned up when the calling file's tests are done.
 */
export async function startAppOnTestDatabase(env: Record<string, string> = {}) {
  const database = await createTestDatabase()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-system-'))
  const port = await freePort()
  const server = await startServer({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    ...env,
  })
  onFileCleanup(async () => {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
  return { server, database }
}
