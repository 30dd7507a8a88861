import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createDiskFileStore, type FileStore } from '#core/uploads/file-store.ts'
import { onFileCleanup } from '#tests/db.ts'

/** A real disk file store in a fresh temporary directory, removed when the test file ends. */
export function createTestFileStore(): FileStore & { root: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'storefront-files-'))
  onFileCleanup(async () => rmSync(root, { recursive: true, force: true }))
  return { ...createDiskFileStore(root), root }
}
