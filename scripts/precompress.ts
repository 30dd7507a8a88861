/**
 * After `react-router build`: writes a brotli (`.br`) and a gzip (`.gz`) copy beside each text
 * file of the client build, at the strongest levels, so the server never compresses a static file
 * per request (server/static-assets.ts serves them). A copy that is not smaller is not written.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

const COMPRESSIBLE = new Set([
  '.js',
  '.css',
  '.svg',
  '.json',
  '.txt',
  '.xml',
  '.webmanifest',
  '.html',
  '.map',
])
const root = path.resolve(process.argv[2] ?? 'build/client')

let files = 0
let before = 0
let afterBrotli = 0
for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.has(path.extname(entry.name))) continue
  const file = path.join(entry.parentPath, entry.name)
  const content = fs.readFileSync(file)
  const brotli = zlib.brotliCompressSync(content, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  })
  const gzip = zlib.gzipSync(content, { level: zlib.constants.Z_BEST_COMPRESSION })
  if (brotli.length < content.length) fs.writeFileSync(`${file}.br`, brotli)
  if (gzip.length < content.length) fs.writeFileSync(`${file}.gz`, gzip)
  files += 1
  before += content.length
  afterBrotli += Math.min(brotli.length, content.length)
}
console.log(
  `precompressed ${files} files in ${path.relative(process.cwd(), root)}: ${(before / 1024).toFixed(0)} KB → ${(afterBrotli / 1024).toFixed(0)} KB brotli`,
)
