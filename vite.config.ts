import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { standIns } from './scripts/lib/browser-stand-ins.ts'

export default defineConfig({
  environments: { ssr: { build: { rollupOptions: { input: './server/app.ts' } } } },
  plugins: [...standIns(), tailwindcss(), reactRouter()],
  // Known up front, so the first page in development does not trigger a re-optimisation (504).
  optimizeDeps: {
    include: ['react', 'react-dom', 'react-dom/client', 'react-router', 'react-router/dom', 'lucide-react'],
  },
  server: { watch: { ignored: ['**/data/**', '**/test-results/**', '**/playwright-report/**'] } },
})
