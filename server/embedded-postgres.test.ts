import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { stopOrphan } from './embedded-postgres.ts'

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill()
})

function clusterWithPid(pid: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-orphan-'))
  fs.writeFileSync(path.join(dir, 'postmaster.pid'), `${pid}\n${dir}\n`)
  return dir
}

function sleeper(argv0?: string) {
  const child = spawn('sleep', ['30'], { stdio: 'ignore', ...(argv0 ? { argv0 } : {}) })
  children.push(child)
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  )
  return { child, exited }
}

test('a stale postmaster.pid naming a process that is not PostgreSQL: nothing is signalled, the file goes', async () => {
  const { child } = sleeper()
  const dir = clusterWithPid(child.pid as number)
  const logs: string[] = []
  await stopOrphan(dir, (_level, message) => logs.push(message))
  await new Promise((resolve) => setTimeout(resolve, 100))
  expect(child.exitCode).toBeNull()
  expect(child.signalCode).toBeNull()
  expect(fs.existsSync(path.join(dir, 'postmaster.pid'))).toBe(false)
  expect(logs.join('\n')).toContain('not PostgreSQL')
  fs.rmSync(dir, { recursive: true, force: true })
})

test('a PostgreSQL left running is stopped with SIGINT', async () => {
  const { child, exited } = sleeper('postgres')
  const dir = clusterWithPid(child.pid as number)
  await stopOrphan(dir, () => {})
  expect(await exited).toBe('SIGINT')
  fs.rmSync(dir, { recursive: true, force: true })
})

test('no file, or a PID that is gone: nothing to do', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-orphan-'))
  await stopOrphan(dir, () => {})
  const { child, exited } = sleeper()
  child.kill()
  await exited
  fs.writeFileSync(path.join(dir, 'postmaster.pid'), `${child.pid}\n`)
  await stopOrphan(dir, () => {})
  expect(fs.existsSync(path.join(dir, 'postmaster.pid'))).toBe(true)
  fs.rmSync(dir, { recursive: true, force: true })
})
