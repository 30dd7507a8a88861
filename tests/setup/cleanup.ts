import { afterAll } from 'vitest'
import { runFileCleanups } from '#tests/db.ts'

// Runs in every file of the `db` project (vitest.config.ts setupFiles): what the file's tests
// started (servers, test databases) is stopped and dropped when the file is done.
afterAll(runFileCleanups)
