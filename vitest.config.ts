import { defineConfig } from 'vitest/config'

// Separate from vite.config.ts so the React Router plugin does not load under Vitest.
// Two projects: `unit` needs nothing; `db` runs on real PostgreSQL (embedded, or DATABASE_URL's
// server) with one database per test file cloned from a migrated template.
// With TEST_REPORT_DIR set (CI), results are also written as JSON for scripts/test-summary.ts.
const reportDir = process.env.TEST_REPORT_DIR
const reporters = reportDir
  ? [
      'default',
      [
        'json',
        { outputFile: `${reportDir}/vitest-${process.env.DATABASE_URL ? 'external-pg' : 'embedded'}.json` },
      ],
    ]
  : ['default']

export default defineConfig({
  test: {
    reporters: reporters as never,
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['{core,app,server,db,tests,scripts}/**/*.test.{ts,tsx}'],
          exclude: ['**/*.db.test.ts', 'tests/system/**', 'node_modules/**'],
        },
      },
      {
        test: {
          name: 'db',
          environment: 'node',
          include: ['**/*.db.test.ts', 'tests/system/**/*.test.ts'],
          exclude: ['node_modules/**'],
          globalSetup: ['./tests/setup/database.ts'],
          setupFiles: ['./tests/setup/cleanup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two cores: system tests start whole servers.
          maxWorkers: 2,
        },
      },
    ],
  },
})
