import fs from 'node:fs'
import path from 'node:path'

/**
 * The JavaScript a page loads, as the build ships it: every script and modulepreload of its HTML,
 * with the size of the brotli copy beside each asset in build/client/assets (what a browser that
 * accepts brotli receives; the plain size when no .br copy was kept).
 */
export function pageScripts(html: string, clientDir = 'build/client'): { file: string; bytes: number }[] {
  const files = new Set<string>()
  for (const match of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const tag = match[0]
    const isScript = tag.startsWith('<script') || /rel="modulepreload"/.test(tag)
    const src = /\b(?:src|href)="(\/assets\/[^"]+\.js)"/.exec(tag)?.[1]
    if (isScript && src) files.add(src)
  }
  // React Router also imports entry and route modules from an inline module script.
  for (const match of html.matchAll(/import\s*(?:[^'"]*from\s*)?"(\/assets\/[^"]+\.js)"/g))
    if (match[1]) files.add(match[1])
  return [...files].map((file) => {
    const local = path.join(clientDir, file)
    const brotli = `${local}.br`
    const bytes = fs.existsSync(brotli)
      ? fs.statSync(brotli).size
      : fs.existsSync(local)
        ? fs.statSync(local).size
        : 0
    return { file, bytes }
  })
}
