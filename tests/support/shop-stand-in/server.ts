import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import sharp from 'sharp'
import { CHANGED_PAGE, SHOP_PAGES, type ShopPage } from './pages.ts'

/**
 * A local stand-in for the shops the link preview fetches (tests and Playwright only). The link
 * preview's `standIn` policy sends each request here over plain http with the real Host header
 * and path; this server answers by Host + path with the saved-structure product pages of
 * pages.ts, and with trap routes (on any host) for the fetch's refusals: long redirect chains,
 * redirects off the allow-list or to private addresses, a slow page, a huge page, non-HTML
 * answers and a changed page without item data. It never contacts anything itself.
 */

export type ShopStandIn = {
  port: number
  /** How many requests it has answered (or started answering). */
  requests: () => number
  close(): Promise<void>
}

const TRAP_HOST = 'https://jp.mercari.com'

/** Trap URLs: each on an allow-listed host, each served by the stand-in. */
export const TRAP_URLS = {
  redirect2: `${TRAP_HOST}/trap/redirect/2`,
  redirect4: `${TRAP_HOST}/trap/redirect/4`,
  slow: `${TRAP_HOST}/trap/slow`,
  huge: `${TRAP_HOST}/trap/huge`,
  hugeDeclared: `${TRAP_HOST}/trap/huge-declared`,
  png: `${TRAP_HOST}/trap/png`,
  json: `${TRAP_HOST}/trap/json`,
  toLoopback: `${TRAP_HOST}/trap/to-loopback`,
  toEvil: `${TRAP_HOST}/trap/to-evil`,
  toMetadata: `${TRAP_HOST}/trap/to-metadata`,
  changed: `${TRAP_HOST}/trap/changed`,
  notFound: `${TRAP_HOST}/trap/not-found`,
} as const

/** Where the redirect chains end. */
export const REDIRECT_TARGET = SHOP_PAGES[0] as ShopPage

const SLOW_MS = 10_000
const HUGE_BYTES = 3 * 1024 * 1024

/** Every product's photo: 120 × 90, one colour, made once. */
const PHOTO = await sharp({
  create: { width: 120, height: 90, channels: 3, background: { r: 200, g: 40, b: 40 } },
})
  .png()
  .toBuffer()

export async function startShopStandIn(port = 0): Promise<ShopStandIn> {
  let count = 0
  const timers = new Set<NodeJS.Timeout>()
  const server = http.createServer((request, response) => {
    count++
    const host = (request.headers.host ?? '').toLowerCase()
    const path = request.url ?? '/'
    const page = SHOP_PAGES.find((candidate) => {
      const url = new URL(candidate.url)
      return url.host === host && `${url.pathname}${url.search}` === path
    })
    if (page) return sendPage(response, page)
    // A product's photo, on the shop's own image host: a small real PNG.
    const photo = SHOP_PAGES.some((candidate) => {
      if (!candidate.imageUrl) return false
      const url = new URL(candidate.imageUrl)
      return url.host === host && `${url.pathname}${url.search}` === path
    })
    if (photo) {
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PHOTO.length })
      response.end(PHOTO)
      return
    }
    if (path.startsWith('/trap/')) return sendTrap(path, response, { port: listeningPort(), timers })
    sendHtml(response, 404, '<!doctype html><title>404</title><p>Not found</p>')
  })
  const listeningPort = () => (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    port: listeningPort(),
    requests: () => count,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer)
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}

function sendTrap(
  path: string,
  response: http.ServerResponse,
  context: { port: number; timers: Set<NodeJS.Timeout> },
) {
  const hops = /^\/trap\/redirect\/(\d)$/.exec(path)?.[1]
  if (hops) {
    const left = Number(hops) - 1
    return redirect(response, left > 0 ? `/trap/redirect/${left}` : REDIRECT_TARGET.url)
  }
  switch (path) {
    case '/trap/slow': {
      const timer = setTimeout(() => sendHtml(response, 200, CHANGED_PAGE), SLOW_MS)
      context.timers.add(timer)
      return
    }
    case '/trap/huge':
      return streamHuge(response, false)
    case '/trap/huge-declared':
      return streamHuge(response, true)
    case '/trap/png':
      response.writeHead(200, { 'Content-Type': 'image/png' })
      return void response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    case '/trap/json':
      response.writeHead(200, { 'Content-Type': 'application/json' })
      return void response.end('{"name":"not a page"}')
    case '/trap/to-loopback':
      return redirect(response, `http://127.0.0.1:${context.port}/x`)
    case '/trap/to-evil':
      return redirect(response, 'https://evil.example/x')
    case '/trap/to-metadata':
      return redirect(response, 'https://169.254.169.254/latest/meta-data')
    case '/trap/changed':
      return sendHtml(response, 200, CHANGED_PAGE)
    default:
      return sendHtml(response, 404, '<!doctype html><title>404</title><p>Not found</p>')
  }
}

function redirect(response: http.ServerResponse, location: string): void {
  response.writeHead(302, { Location: location, 'Content-Length': '0' })
  response.end()
}

function sendHtml(response: http.ServerResponse, status: number, html: string): void {
  if (response.destroyed) return
  response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' })
  response.end(html)
}

function sendPage(response: http.ServerResponse, page: ShopPage): void {
  const charset = page.charset === 'shift_jis' ? 'Shift_JIS' : page.charset === 'euc-jp' ? 'EUC-JP' : 'utf-8'
  const contentType = page.charsetInMetaOnly ? 'text/html' : `text/html; charset=${charset}`
  response.writeHead(200, { 'Content-Type': contentType })
  response.end(encode(page.html, page.charset))
}

/** 3 MiB of HTML in 64 KiB chunks, stopping when the client goes away. */
function streamHuge(response: http.ServerResponse, declareLength: boolean): void {
  const headers: http.OutgoingHttpHeaders = { 'Content-Type': 'text/html; charset=utf-8' }
  if (declareLength) headers['Content-Length'] = String(HUGE_BYTES)
  response.writeHead(200, headers)
  const chunk = Buffer.alloc(64 * 1024, 'a')
  let sent = 0
  const pump = () => {
    while (sent < HUGE_BYTES && !response.destroyed) {
      sent += chunk.length
      if (!response.write(chunk)) return void response.once('drain', pump)
    }
    if (!response.destroyed) response.end()
  }
  response.on('error', () => {})
  pump()
}

const reverseTables = new Map<string, Map<string, number[]>>()

/** The text in Shift_JIS or EUC-JP bytes (a reverse table of TextDecoder's), or UTF-8. */
export function encode(text: string, charset: ShopPage['charset']): Buffer {
  if (charset === 'utf-8') return Buffer.from(text, 'utf-8')
  const table = reverseTable(charset)
  const bytes: number[] = []
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0x3f
    if (code < 0x80) bytes.push(code)
    else bytes.push(...(table.get(char) ?? [0x3f]))
  }
  return Buffer.from(bytes)
}

function reverseTable(charset: 'shift_jis' | 'euc-jp'): Map<string, number[]> {
  const cached = reverseTables.get(charset)
  if (cached) return cached
  const decoder = new TextDecoder(charset)
  const table = new Map<string, number[]>()
  const leads = charset === 'shift_jis' ? [...range(0x81, 0x9f), ...range(0xe0, 0xfc)] : range(0xa1, 0xfe)
  const trails = charset === 'shift_jis' ? range(0x40, 0xfc) : range(0xa1, 0xfe)
  for (const lead of leads) {
    for (const trail of trails) {
      const char = decoder.decode(new Uint8Array([lead, trail]))
      if (char.length === 1 && char !== '\ufffd' && !table.has(char)) table.set(char, [lead, trail])
    }
  }
  reverseTables.set(charset, table)
  return table
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index)
}

// Standalone (a Playwright webServer): node tests/support/shop-stand-in/server.ts <port>
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.argv[2] ?? '0')
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error('usage: node tests/support/shop-stand-in/server.ts <port>')
  }
  const standIn = await startShopStandIn(port)
  console.log(`shop stand-in on ${standIn.port}`)
}
