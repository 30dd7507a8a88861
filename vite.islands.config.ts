import { defineConfig } from 'vite'
import { standIns } from './scripts/lib/browser-stand-ins.ts'

/**
 * The islands of the document pages (app/islands/, ADR 044): each `<name>.client.tsx` is an entry
 * that hydrates one part of a server-rendered page with React DOM alone, no router. Built after
 * React Router's client build into the same build/client/assets (shared code in common chunks);
 * the server reads build/client/.vite/islands-manifest.json to name the script and its imports
 * (server/document-assets.ts).
 */
export default defineConfig({
  plugins: [...standIns()],
  // The CSS is the site's one stylesheet (app.css), inlined by the page; islands import none.
  publicDir: false,
  build: {
    outDir: 'build/client',
    emptyOutDir: false,
    manifest: '.vite/islands-manifest.json',
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: { calculator: 'app/islands/calculator.client.tsx' },
      // core/ runs nothing on import that an island needs (docs/README.md: plain functions): a
      // module an island takes one function from need not bring the rest, such as a zod schema
      // built at load (core/landed-cost/import-rules.ts behind destination-rules.ts' `methodsFor`:
      // 21 KB brotli).
      treeshake: { moduleSideEffects: [{ test: /\/core\/.+\.ts$/, sideEffects: false }] },
      output: {
        entryFileNames: 'assets/island-[name]-[hash].js',
        chunkFileNames: 'assets/island-[name]-[hash].js',
      },
    },
  },
})
