import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { createDiskFileStore, reportingMissingFiles } from './file-store.ts'

const roots: string[] = []
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true })
})

test('a file asked for and not held is reported; one held is not', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'files-'))
  roots.push(root)
  const missing: string[] = []
  const store = reportingMissingFiles(createDiskFileStore(root), (key) => missing.push(key))
  await store.put('packages/a/1.webp', new Uint8Array([1, 2, 3]))
  expect(await store.get('packages/a/1.webp')).toEqual(new Uint8Array([1, 2, 3]))
  expect(missing).toEqual([])
  expect(await store.get('packages/b/1.webp')).toBeNull()
  expect(missing).toEqual(['packages/b/1.webp'])
  await store.delete('packages/a/1.webp')
  expect(await store.get('packages/a/1.webp')).toBeNull()
  expect(missing).toEqual(['packages/b/1.webp', 'packages/a/1.webp'])
})
