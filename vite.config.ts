import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

// The server build's entry is server/app.ts (React Router 8 reads it from environments.ssr).
// The Express app and the routes are then one module graph: context keys and caches exist once
// per process.
export default defineConfig({
  environments: { ssr: { build: { rollupOptions: { input: './server/app.ts' } } } },
  plugins: [tailwindcss(), reactRouter()],
  // Known up front, so the first page in development does not trigger a re-optimisation (504).
  optimizeDeps: {
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      'react-router',
      'react-router/dom',
      'i18next',
      'react-i18next',
      'lucide-react',
    ],
  },
  server: { watch: { ignored: ['**/data/**', '**/test-results/**', '**/playwright-report/**'] } },
})
