/**
 * Before `npm run test:db`: the system tests (tests/system) start the production build, so this
 * runs `npm run build` when build/server/index.js is missing or older than a file it is built
 * from (app/, core/, db/, server/, public/ and the build's own configuration; test files aside),
 * and says why. A fresh build (CI's `npm test` has just made one) is left alone.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const OUTPUT = 'build/server/index.js'
const SOURCES = [
  'app',
  'core',
  'db',
  'server',
  'public',
  'vite.config.ts',
  'react-router.config.ts',
  'tsconfig.json',
  'package-lock.json',
  'scripts/check-browser-chunks.ts',
  'scripts/precompress.ts',
]
const isTest = (name: string) => /\.test\.tsx?$/.test(name)

/** The newest file among `SOURCES` (tests left out): its path and modification time. */
function newestSource(): { file: string; mtimeMs: number } | null {
  let newest: { file: string; mtimeMs: number } | null = null
  const consider = (file: string) => {
    const { mtimeMs } = fs.statSync(file)
    if (!newest || mtimeMs > newest.mtimeMs) newest = { file, mtimeMs }
  }
  for (const source of SOURCES) {
    if (!fs.existsSync(source)) continue
    if (!fs.statSync(source).isDirectory()) {
      consider(source)
      continue
    }
    for (const entry of fs.readdirSync(source, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && !isTest(entry.name)) consider(path.join(entry.parentPath, entry.name))
    }
  }
  return newest
}

const built = fs.existsSync(OUTPUT) ? fs.statSync(OUTPUT).mtimeMs : null
const newest = newestSource()
const reason =
  built === null
    ? `${OUTPUT} is missing`
    : newest && newest.mtimeMs > built
      ? `${newest.file} changed after the last build`
      : null
if (reason) {
  console.log(`The system tests run the production build; ${reason}: npm run build`)
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' })
} else {
  console.log(`The production build (${OUTPUT}) is newer than its sources: not rebuilt`)
}
