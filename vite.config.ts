import { fileURLToPath } from 'node:url'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin } from 'vite'

/**
 * The browser build gets app/i18n-browser/ for i18next and react-i18next: the same strings in a
 * sliver of the code (docs/decisions/032-…). The server, the tests and the types keep the real
 * packages.
 */
function browserI18n(): Plugin {
  const standIns: Record<string, string> = {
    i18next: fileURLToPath(new URL('./app/i18n-browser/i18next.ts', import.meta.url)),
    'react-i18next': fileURLToPath(new URL('./app/i18n-browser/react-i18next.tsx', import.meta.url)),
  }
  return {
    name: 'browser-i18n',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'client',
    resolveId: (source) => standIns[source],
  }
}

// The server build's entry is server/app.ts (React Router 8 reads it from environments.ssr).
// The Express app and the routes are then one module graph: context keys and caches exist once
// per process.
export default defineConfig({
  environments: { ssr: { build: { rollupOptions: { input: './server/app.ts' } } } },
  plugins: [browserI18n(), tailwindcss(), reactRouter()],
  // Known up front, so the first page in development does not trigger a re-optimisation (504).
  optimizeDeps: {
    include: ['react', 'react-dom', 'react-dom/client', 'react-router', 'react-router/dom', 'lucide-react'],
  },
  server: { watch: { ignored: ['**/data/**', '**/test-results/**', '**/playwright-report/**'] } },
})
