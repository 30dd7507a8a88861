import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { hasGpsTag, phoneJpeg, pngBomb } from '#tests/support/photo-fixtures.ts'
import {
  limitConcurrency,
  MAX_PHOTO_BYTES,
  PHOTO_INPUT_ACCEPT,
  type PhotoRefusal,
  processPhoto,
  sniffPhotoType,
} from './images.ts'

// Every fixture is made with sharp itself (or by hand, for the files that are not images): here or
// in tests/support/photo-fixtures.ts.

function plain(width: number, height: number, channels: 3 | 4 = 3) {
  return sharp({ create: { width, height, channels, background: { r: 200, g: 120, b: 40, alpha: 0.5 } } })
}

function noise(width: number, height: number) {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
}

async function expectRefused(promise: Promise<unknown>, reason: PhotoRefusal): Promise<void> {
  await expect(promise).rejects.toMatchObject({ name: 'AppError', code: 'invalid', details: { reason } })
}

const text = (value: string) => new TextEncoder().encode(value)

describe('accepted photos', () => {
  test('a phone JPEG is turned upright and loses all its metadata, GPS included', async () => {
    const input = await phoneJpeg()
    const before = await sharp(input).metadata()
    // The fixture really carries what must go.
    expect(before).toMatchObject({
      format: 'jpeg',
      width: 300,
      height: 200,
      orientation: 6,
      hasProfile: true,
    })
    expect(before.exif && hasGpsTag(before.exif)).toBe(true)
    expect(before.xmp).toBeDefined()

    const photo = await processPhoto(input, { type: 'image/jpeg', name: 'IMG_0001.JPG' })

    expect(photo).toMatchObject({ contentType: 'image/webp', width: 200, height: 300 })
    const after = await sharp(photo.bytes).metadata()
    expect(after).toMatchObject({ format: 'webp', width: 200, height: 300, space: 'srgb', hasProfile: false })
    expect(after.exif).toBeUndefined()
    expect(after.xmp).toBeUndefined()
    expect(after.iptc).toBeUndefined()
    expect(after.icc).toBeUndefined()
    expect(after.orientation).toBeUndefined()
    const bytes = Buffer.from(photo.bytes)
    for (const trace of ['Exif', 'EXIF', 'XMP ', 'ICCP', 'Acme']) expect(bytes.includes(trace)).toBe(false)
    expect(hasGpsTag(bytes)).toBe(false)

    // Upright: the stored left column (red) is now the top row, the right (blue) the bottom.
    const { data, info } = await sharp(photo.bytes).raw().toBuffer({ resolveWithObject: true })
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
    ]
    const [topR, , topB] = pixel(100, 20) as [number, number, number]
    const [bottomR, , bottomB] = pixel(100, 280) as [number, number, number]
    expect(topR).toBeGreaterThan(200)
    expect(topB).toBeLessThan(60)
    expect(bottomB).toBeGreaterThan(200)
    expect(bottomR).toBeLessThan(60)
  })

  test('a PNG keeps its size and its transparency', async () => {
    const photo = await processPhoto(await plain(50, 40, 4).png().toBuffer(), { type: 'image/png' })
    expect(photo).toMatchObject({ contentType: 'image/webp', width: 50, height: 40 })
    expect(await sharp(photo.bytes).metadata()).toMatchObject({ format: 'webp', hasAlpha: true })
  })

  test('a WebP, a GIF and an AVIF are accepted', async () => {
    for (const input of [
      await plain(64, 48).webp().toBuffer(),
      await plain(64, 48).gif().toBuffer(),
      await plain(64, 48).avif().toBuffer(),
    ]) {
      const photo = await processPhoto(input)
      expect(photo).toMatchObject({ contentType: 'image/webp', width: 64, height: 48 })
      expect((await sharp(photo.bytes).metadata()).format).toBe('webp')
    }
  })

  test('a 4000×3000 photo is made to fit within 1600 px; a small one is not enlarged', async () => {
    const large = await processPhoto(await plain(4000, 3000).jpeg().toBuffer())
    expect(large).toMatchObject({ width: 1600, height: 1200 })
    const tall = await processPhoto(await plain(900, 2400).jpeg().toBuffer())
    expect(tall).toMatchObject({ width: 600, height: 1600 })
    const small = await processPhoto(await plain(120, 80).jpeg().toBuffer())
    expect(small).toMatchObject({ width: 120, height: 80 })
  })

  test('the type is read from the content: a real PNG named x.jpg and claimed as JPEG is fine', async () => {
    const photo = await processPhoto(await plain(20, 10).png().toBuffer(), {
      type: 'image/jpeg',
      name: 'x.jpg',
    })
    expect(photo).toMatchObject({ contentType: 'image/webp', width: 20, height: 10 })
  })

  test('sha256 is of the output bytes and the same input gives the same output', async () => {
    const input = await phoneJpeg()
    const first = await processPhoto(input)
    const second = await processPhoto(new Uint8Array(input))
    expect(first.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(first.sha256).toBe(createHash('sha256').update(first.bytes).digest('hex'))
    expect(second.sha256).toBe(first.sha256)
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true)
  })
})

describe('refused uploads', () => {
  test('empty → photoEmpty', async () => {
    await expectRefused(processPhoto(new Uint8Array(0), { type: 'image/jpeg', name: 'x.jpg' }), 'photoEmpty')
  })

  test('5 MB + 1 byte → photoTooLarge; exactly 5 MB is let through to the type check', async () => {
    const over = new Uint8Array(MAX_PHOTO_BYTES + 1)
    over.set([0xff, 0xd8, 0xff])
    await expectRefused(processPhoto(over, { type: 'image/jpeg' }), 'photoTooLarge')
    await expectRefused(processPhoto(new Uint8Array(MAX_PHOTO_BYTES)), 'photoType')
  })

  test('files that are not images, whatever they claim → photoType', async () => {
    const disguised: [string, Uint8Array][] = [
      ['HTML', text('<!doctype html><html><script>alert(1)</script></html>')],
      [
        'SVG',
        text(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
        ),
      ],
      ['SVG with a prolog', text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>')],
      ['PDF', text('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog >>\nendobj\n')],
      ['zip', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00])],
      ['text', text('just some text')],
    ]
    for (const [what, bytes] of disguised) {
      await expectRefused(processPhoto(bytes, { type: 'image/jpeg', name: 'x.jpg' }), 'photoType').catch(
        (error: unknown) => {
          throw new Error(`${what}: ${String(error)}`)
        },
      )
    }
  })

  test('image types outside the list → photoType: real SVG, TIFF, HEIC', async () => {
    const svg = await sharp(text('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>')).metadata()
    expect(svg.format).toBe('svg') // libvips here would decode it: only the sniffing stops it
    await expectRefused(
      processPhoto(text('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>'), {
        type: 'image/svg+xml',
      }),
      'photoType',
    )
    await expectRefused(processPhoto(await plain(8, 8).tiff().toBuffer()), 'photoType')
    // The start of an iPhone HEIC: a `ftyp` box with brands heic and mif1.
    const heic = new Uint8Array([
      ...[0, 0, 0, 0x18],
      ...text('ftypheic'),
      ...[0, 0, 0, 0],
      ...text('mif1heic'),
      ...new Uint8Array(64),
    ])
    await expectRefused(processPhoto(heic, { type: 'image/heic', name: 'IMG_0002.HEIC' }), 'photoType')
  })

  test('a truncated JPEG → photoCorrupt', async () => {
    const whole = await noise(400, 300).jpeg().toBuffer()
    await expectRefused(processPhoto(whole.subarray(0, Math.floor(whole.length * 0.6))), 'photoCorrupt')
  })

  test('a JPEG start followed by garbage → photoCorrupt', async () => {
    const garbage = new Uint8Array(2000).map((_, index) => (index * 37) % 256)
    garbage.set([0xff, 0xd8, 0xff, 0xe0])
    await expectRefused(processPhoto(garbage), 'photoCorrupt')
  })

  test('a decompression bomb (a small PNG of 20000×20000 pixels) → photoCorrupt', async () => {
    const bomb = pngBomb(20_000, 20_000)
    expect(bomb.length).toBeLessThan(100_000)
    const started = Date.now()
    await expectRefused(processPhoto(bomb, { type: 'image/png' }), 'photoCorrupt')
    expect(Date.now() - started).toBeLessThan(2000) // refused from the header, not decoded
  })
})

describe('sniffPhotoType', () => {
  test('knows each accepted type by its first bytes, and nothing else', async () => {
    expect(sniffPhotoType(await plain(4, 4).jpeg().toBuffer())).toBe('image/jpeg')
    expect(sniffPhotoType(await plain(4, 4).png().toBuffer())).toBe('image/png')
    expect(sniffPhotoType(await plain(4, 4).webp().toBuffer())).toBe('image/webp')
    expect(sniffPhotoType(await plain(4, 4).gif().toBuffer())).toBe('image/gif')
    expect(sniffPhotoType(await plain(4, 4).avif().toBuffer())).toBe('image/avif')
    expect(sniffPhotoType(await plain(4, 4).tiff().toBuffer())).toBeUndefined()
    expect(sniffPhotoType(new Uint8Array([0xff, 0xd8]))).toBeUndefined()
    expect(sniffPhotoType(text('RIFF\0\0\0\0WAVE'))).toBeUndefined()
  })

  test('the input accept list names the accepted types', () => {
    expect(PHOTO_INPUT_ACCEPT).toBe('image/jpeg,image/png,image/webp,image/gif,image/avif')
  })
})

describe('limitConcurrency', () => {
  test('runs at most the given number at once, in order, and frees a slot when a task fails', async () => {
    const run = limitConcurrency(2)
    let running = 0
    let most = 0
    const started: number[] = []
    const task = (id: number) => async () => {
      started.push(id)
      running++
      most = Math.max(most, running)
      await new Promise((resolve) => setTimeout(resolve, 5))
      running--
      if (id === 1) throw new Error('task 1 fails')
      return id
    }
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map((id) => run(task(id))))
    expect(most).toBe(2)
    expect(started).toEqual([1, 2, 3, 4, 5, 6])
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : 'failed'))).toEqual([
      'failed',
      2,
      3,
      4,
      5,
      6,
    ])
  })
})
