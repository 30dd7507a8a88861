import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * Where uploaded files live once made safe (package photos: docs/decisions/027): a key such as
 * `packages/3f…/1.webp` names one file. Keys are ours (built from ids), never a user's text; the
 * store checks their shape anyway. On local disk under `DATA_DIR/uploads` by default.
 */
export type FileStore = {
  put(key: string, bytes: Uint8Array): Promise<void>
  /** The file's bytes, or null when there is none. */
  get(key: string): Promise<Uint8Array | null>
  /** Removes the file; a missing one is fine. */
  delete(key: string): Promise<void>
}

const KEY = /^[a-z0-9-]+(\/[a-z0-9-]+)*\.[a-z]+$/

export function assertFileKey(key: string): void {
  if (!KEY.test(key) || key.length > 200) throw new Error(`Not a file key: ${key.slice(0, 80)}`)
}

/**
 * Files on local disk under `root`. A file is written beside its place and renamed into it, so a
 * reader never sees half of one and a crash leaves no partial file under its key.
 */
export function createDiskFileStore(root: string): FileStore {
  const where = (key: string) => {
    assertFileKey(key)
    return path.join(root, ...key.split('/'))
  }
  return {
    async put(key, bytes) {
      const target = where(key)
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 })
      const temporary = `${target}.${process.pid}.${Date.now()}.part`
      await writeFile(temporary, bytes, { mode: 0o600 })
      await rename(temporary, target)
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(where(key)))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
    async delete(key) {
      await rm(where(key), { force: true })
    },
  }
}

/**
 * A store that reports a file it was asked for and does not hold (issue 33). Every key the app
 * asks for was stored by it (a photo row, a logo row), so a missing file is an error to look at:
 * most often a second process with its own disk and no S3 (README, "Running at scale").
 */
export function reportingMissingFiles(store: FileStore, onMissing: (key: string) => void): FileStore {
  return {
    put: (key, bytes) => store.put(key, bytes),
    async get(key) {
      const bytes = await store.get(key)
      if (bytes === null) onMissing(key)
      return bytes
    },
    delete: (key) => store.delete(key),
  }
}
