import fs from 'node:fs'
import path from 'node:path'
import type { DocumentAssets } from '#app/components/document-scripts.tsx'

type ManifestChunk = { file: string; imports?: string[] }

/**
 * What the document pages need of the client build (app/lib/page-kind.ts, ADR 044): the
 * stylesheet's text to inline, read once, and each island's script with the chunks it imports
 * (build/client/.vite/islands-manifest.json, written by vite.islands.config.ts). Without a build
 * (development) there are no document pages: Vite's client needs React Router's scripts.
 */
export function documentAssets(clientDir: string | undefined): DocumentAssets {
  if (!clientDir) return { documents: false, stylesheetText: () => null, island: () => null }
  const texts = new Map<string, string | null>()
  const manifestFile = path.join(clientDir, '.vite', 'islands-manifest.json')
  const manifest: Record<string, ManifestChunk> = fs.existsSync(manifestFile)
    ? JSON.parse(fs.readFileSync(manifestFile, 'utf8'))
    : {}
  return {
    documents: true,
    stylesheetText(href) {
      if (!/^\/assets\/[\w.-]+\.css$/.test(href)) return null
      let text = texts.get(href)
      if (text === undefined) {
        const file = path.join(clientDir, href)
        text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null
        texts.set(href, text)
      }
      return text
    },
    island(name) {
      const entry = manifest[`app/islands/${name}.client.tsx`]
      if (!entry) return null
      const preloads = new Set<string>()
      const visit = (key: string) => {
        const chunk = manifest[key]
        if (!chunk || preloads.has(`/${chunk.file}`)) return
        preloads.add(`/${chunk.file}`)
        for (const next of chunk.imports ?? []) visit(next)
      }
      for (const key of entry.imports ?? []) visit(key)
      return { src: `/${entry.file}`, preloads: [...preloads] }
    },
  }
}
