import { fileURLToPath } from 'node:url'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin } from 'vite'

/**
 * What the browser build gets instead of a package (app/browser/, docs/decisions/032-…): a small
 * stand-in for i18next and react-i18next (the same strings in a sliver of the code), and zod
 * configured for the CSP. The server build takes the react-i18next stand-in too, over the real
 * i18next (docs/decisions/044). The tests and the types keep the real packages.
 */
function standIns(): Plugin[] {
  const file = (name: string) => fileURLToPath(new URL(`./app/browser/${name}`, import.meta.url))
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

export default defineConfig({
  environments: { ssr: { build: { rollupOptions: { input: './server/app.ts' } } } },
  plugins: [...standIns(), tailwindcss(), reactRouter()],
  // Known up front, so the first page in development does not trigger a re-optimisation (504).
  optimizeDeps: {
    include: ['react', 'react-dom', 'react-dom/client', 'react-router', 'react-router/dom', 'lucide-react'],
  },
  server: { watch: { ignored: ['**/data/**', '**/test-results/**', '**/playwright-report/**'] } },
})
