/**
 * Prints one closing line for CI from the JSON reports in TEST_REPORT_DIR:
 * `tests: N passed, N failed, N skipped`. Exits non-zero when a test failed or none ran.
 */
import fs from 'node:fs'
import path from 'node:path'

const dir = process.env.TEST_REPORT_DIR ?? '.test-reports'
let passed = 0
let failed = 0
let skipped = 0
for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))
  if (file.startsWith('vitest')) {
    passed += report.numPassedTests
    failed += report.numFailedTests
    skipped += report.numPendingTests + report.numTodoTests
  } else if (file.startsWith('playwright')) {
    passed += report.stats.expected + report.stats.flaky
    failed += report.stats.unexpected
    skipped += report.stats.skipped
  }
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
