import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'

/**
 * What a build gets instead of a package (app/browser/, docs/decisions/032-…): a small stand-in
 * for i18next and react-i18next (the same strings in a sliver of the code), and zod configured for
 * the CSP, in the browser build (React Router's client and the islands: vite.islands.config.ts).
 * The server build takes the react-i18next stand-in too, over the real i18next. The tests and the
 * types keep the real packages.
 */
export function standIns(): Plugin[] {
  const file = (name: string) => fileURLToPath(new URL(`../../app/browser/${name}`, import.meta.url))
  const plugin = (name: string, environments: string[], standIns: Record<string, string>): Plugin => ({
    name,
    enforce: 'pre',
    applyToEnvironment: (environment) => environments.includes(environment.name),
    // A stand-in's own imports reach the real package (app/browser/zod.ts imports zod).
    resolveId: (source, importer) =>
      importer && Object.values(standIns).includes(importer) ? undefined : standIns[source],
  })
  return [
    plugin('browser-stand-ins', ['client'], { i18next: file('i18next.ts'), zod: file('zod.ts') }),
    plugin('react-i18next-stand-in', ['client', 'ssr'], { 'react-i18next': file('react-i18next.tsx') }),
  ]
}
