import fs from 'node:fs'
import path from 'node:path'
import type { RequestHandler } from 'express'

/**
 * The hashed files of the client build (`/assets/…`), answered from memory with the copy the
 * build precompressed (scripts/precompress.ts): no file-system lookup and no compression per
 * request. Their names change with their content, so they are cached for a year. An unknown
 * asset is a 404, never a page.
 */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
}

type Encoding = 'br' | 'gzip' | 'identity'
type Asset = { type: string; bodies: Partial<Record<Encoding, Buffer>> }

export function loadAssets(assetsDir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>()
  for (const entry of fs.readdirSync(assetsDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.br') || entry.name.endsWith('.gz')) continue
    const file = path.join(entry.parentPath, entry.name)
    const bodies: Asset['bodies'] = { identity: fs.readFileSync(file) }
    if (fs.existsSync(`${file}.br`)) bodies.br = fs.readFileSync(`${file}.br`)
    if (fs.existsSync(`${file}.gz`)) bodies.gzip = fs.readFileSync(`${file}.gz`)
    const urlPath = `/${path.relative(assetsDir, file).split(path.sep).join('/')}`
    assets.set(urlPath, {
      type: TYPES[path.extname(entry.name).toLowerCase()] ?? 'application/octet-stream',
      bodies,
    })
  }
  return assets
}

/** Mounted at `/assets`, before the logger and the page middleware. */
export function staticAssets(assetsDir: string): RequestHandler {
  const assets = loadAssets(assetsDir)
  return (req, res) => {
    const asset = req.method === 'GET' || req.method === 'HEAD' ? assets.get(req.path) : undefined
    if (!asset) {
      res.status(req.method === 'GET' || req.method === 'HEAD' ? 404 : 405)
      res.setHeader('Cache-Control', 'no-store')
      res.type('text/plain').end('Not found')
      return
    }
    const offered = (['br', 'gzip'] as const).filter((encoding) => asset.bodies[encoding])
    const accepted = acceptedEncodings(req.headers['accept-encoding'])
    // The smallest copy the client takes: brotli over gzip whatever order the client lists them in.
    const encoding: Encoding = offered.find((candidate) => accepted.has(candidate)) ?? 'identity'
    const body = asset.bodies[encoding] ?? asset.bodies.identity
    res.setHeader('Content-Type', asset.type)
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
    if (offered.length > 0) res.setHeader('Vary', 'Accept-Encoding')
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding)
    res.setHeader('Content-Length', String(body?.length ?? 0))
    res.end(req.method === 'HEAD' ? undefined : body)
  }
}

/** The encodings an Accept-Encoding header allows (any with q=0 left out). */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>()
  for (const part of (header ?? '').split(',')) {
    const [rawName = '', ...params] = part.toLowerCase().split(';')
    const name = rawName.trim()
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='))
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name)
  }
  return accepted
}
