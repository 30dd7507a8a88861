import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'

/**
 * What the browser build gets instead of a package (app/browser/, docs/decisions/032-…): a small
 * stand-in for i18next and react-i18next (the same strings in a sliver of the code), and zod
 * configured for the CSP. The server, the tests and the types keep the real packages.
 */
export function browserStandIns(): Plugin {
  const file = (name: string) => fileURLToPath(new URL(`../../app/browser/${name}`, import.meta.url))
  const standIns: Record<string, string> = {
    i18next: file('i18next.ts'),
    'react-i18next': file('react-i18next.tsx'),
    zod: file('zod.ts'),
  }
  return {
    name: 'browser-stand-ins',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'client',
    // A stand-in's own imports reach the real package (app/browser/zod.ts imports zod).
    resolveId: (source, importer) =>
      importer && Object.values(standIns).includes(importer) ? undefined : standIns[source],
  }
}
