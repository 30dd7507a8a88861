import { type ChildProcess, spawn } from 'node:child_process'

/** The Chromium flags every browser run here uses (no sandbox as root, no background traffic). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Starts the production build (`node server/main.ts`) on its own embedded database and resolves
 * once it listens. For the benchmark and Lighthouse scripts.
 */
export async function startProductionServer({
  port,
  dataDir,
  env = {},
}: {
  port: number
  dataDir: string
  env?: Record<string, string>
}) {
  const child: ChildProcess = spawn(process.execPath, ['server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  let ready = false
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk
      // Ready once the start-up lines are out (the demo logins come after the address). Looked
      // for until then only: a run that logs every request keeps writing.
      if (!ready && /Storefront running at[\s\S]*\n\n/.test(output)) {
        ready = true
        resolve()
      }
    })
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    /** What the server printed on start (the URL, and on a new database the demo logins). */
    output: () => output,
    async stop() {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}
