/**
 * After `react-router build`: fails the build when a browser chunk (build/client/assets/*.js)
 * carries server-only code (the Drizzle schema, Buffer, node: modules, pg, pg-boss, sharp,
 * better-auth's server, nodemailer…), naming the chunk, what it carries and the routes that load
 * it. A component must import constants and pure helpers from pure modules (`*-schemas.ts`,
 * `*-rules.ts`…), never from a service. scripts/lib/browser-chunks.ts has the markers.
 */
import path from 'node:path'
import { describeFindings, findServerCodeInBrowserChunks } from './lib/browser-chunks.ts'

const assets = path.resolve(process.argv[2] ?? 'build/client/assets')
const findings = findServerCodeInBrowserChunks(assets)
if (findings.length > 0) {
  console.error(
    `Server-only code in ${findings.length} browser chunk(s) of ${path.relative(process.cwd(), assets)}:\n${describeFindings(findings)}\n` +
      'A component (or a module it imports) reaches a service. Move what the page needs into a pure module beside the service (*-schemas.ts, *-rules.ts).',
  )
  process.exit(1)
}
console.log(`browser chunks: no server-only code in ${path.relative(process.cwd(), assets)}`)
