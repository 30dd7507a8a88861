import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from 'vitest'
import { documentAssets } from './document-assets.ts'

function clientDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'document-assets-'))
  fs.mkdirSync(path.join(dir, 'assets'))
  fs.mkdirSync(path.join(dir, '.vite'))
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc.css'), 'body{color:red}')
  fs.writeFileSync(path.join(dir, 'secret.css'), 'not an asset')
  fs.writeFileSync(
    path.join(dir, '.vite', 'islands-manifest.json'),
    JSON.stringify({
      'app/islands/calculator.client.tsx': { file: 'assets/island-calculator-1.js', imports: ['_react.js'] },
      '_react.js': { file: 'assets/island-react-2.js', imports: ['_scheduler.js'] },
      '_scheduler.js': { file: 'assets/island-scheduler-3.js', imports: ['_react.js'] },
    }),
  )
  return dir
}

test('without a build (development) there are no document pages, nothing to inline, no island', () => {
  const assets = documentAssets(undefined)
  expect(assets.documents).toBe(false)
  expect(assets.stylesheetText('/assets/app-abc.css')).toBeNull()
  expect(assets.island('calculator')).toBeNull()
})

test('the built stylesheet is read for inlining; nothing outside /assets/*.css is', () => {
  const assets = documentAssets(clientDir())
  expect(assets.documents).toBe(true)
  expect(assets.stylesheetText('/assets/app-abc.css')).toBe('body{color:red}')
  expect(assets.stylesheetText('/assets/missing.css')).toBeNull()
  expect(assets.stylesheetText('/secret.css')).toBeNull()
  expect(assets.stylesheetText('/assets/../secret.css')).toBeNull()
})

test('an island names its script and every chunk it imports, each once (cycles too)', () => {
  const assets = documentAssets(clientDir())
  expect(assets.island('calculator')).toEqual({
    src: '/assets/island-calculator-1.js',
    preloads: ['/assets/island-react-2.js', '/assets/island-scheduler-3.js'],
  })
  expect(assets.island('unknown')).toBeNull()
})
