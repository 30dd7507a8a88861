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
export async function startProductionServer({ port, dataDir }: { port: number; dataDir: string }) {
  const child: ChildProcess = spawn(process.execPath, ['server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve, reject) => {
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk
      if (output.includes('Storefront running at')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}
