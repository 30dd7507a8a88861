import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { pngBomb } from '#tests/support/photo-fixtures.ts'
import {
  LOGO_MAX_EDGE,
  type LogoRefusal,
  MAX_LOGO_BYTES,
  processLogo,
  sniffLogoType,
  unsafeSvg,
} from './logos.ts'

// Store logos: a PNG re-encoded, an SVG rasterised (none of its markup kept), the refusals. Every
// image is made here with sharp or by hand.

const text = (value: string) => new TextEncoder().encode(value)

async function expectRefused(promise: Promise<unknown>, reason: LogoRefusal): Promise<void> {
  await expect(promise).rejects.toMatchObject({ name: 'AppError', code: 'invalid', details: { reason } })
}

const SVG = `<?xml version="1.0" encoding="UTF-8"?>
<!-- a shop's mark -->
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20" width="40" height="20">
  <rect width="40" height="20" fill="#1d4ed8"/>
  <circle cx="10" cy="10" r="6" fill="#ffffff" onclick="alert(1)"/>
  <script>alert(document.cookie)</script>
</svg>`

describe('accepted logos', () => {
  test('a PNG comes back as our own PNG within the size, metadata gone', async () => {
    const upload = await sharp({ create: { width: 600, height: 300, channels: 4, background: '#be185dcc' } })
      .withMetadata({ exif: { IFD0: { Copyright: 'someone' } } })
      .png()
      .toBuffer()
    const logo = await processLogo(new Uint8Array(upload))
    expect(sniffLogoType(logo.png)).toBe('png')
    expect([logo.width, logo.height]).toEqual([LOGO_MAX_EDGE, LOGO_MAX_EDGE / 2])
    const metadata = await sharp(logo.png).metadata()
    expect(metadata.exif).toBeUndefined()
    expect(metadata.hasAlpha).toBe(true)
    expect(logo.sha256).toMatch(/^[0-9a-f]{64}$/)
  })

  test('an SVG is rasterised to a sharp PNG: its script and handlers are not in what is stored', async () => {
    const logo = await processLogo(text(SVG))
    expect(sniffLogoType(logo.png)).toBe('png')
    expect([logo.width, logo.height]).toEqual([LOGO_MAX_EDGE, LOGO_MAX_EDGE / 2])
    const stored = Buffer.from(logo.png).toString('latin1')
    expect(stored).not.toContain('<svg')
    expect(stored).not.toContain('alert')
    // The rectangle's blue, drawn.
    const { data } = await sharp(logo.png).raw().toBuffer({ resolveWithObject: true })
    expect([data[0], data[1], data[2]]).toEqual([0x1d, 0x4e, 0xd8])
  })

  test('the same upload gives the same PNG (its address does not change on a re-upload)', async () => {
    const a = await processLogo(text(SVG))
    const b = await processLogo(text(SVG))
    expect(a.sha256).toBe(b.sha256)
  })
})

describe('refused logos', () => {
  test('empty, too large, neither PNG nor SVG', async () => {
    await expectRefused(processLogo(new Uint8Array()), 'logoEmpty')
    await expectRefused(processLogo(new Uint8Array(MAX_LOGO_BYTES + 1)), 'logoTooLarge')
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer()
    await expectRefused(processLogo(new Uint8Array(jpeg)), 'logoType')
    await expectRefused(processLogo(text('<html><svg></svg></html>')), 'logoType')
    await expectRefused(processLogo(text('GIF89a not really')), 'logoType')
  })

  test('a PNG that is cut short, or a decompression bomb, cannot be decoded', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
      .png()
      .toBuffer()
    await expectRefused(processLogo(new Uint8Array(png.subarray(0, 60))), 'logoCorrupt')
    await expectRefused(processLogo(new Uint8Array(pngBomb(20_000, 20_000))), 'logoCorrupt')
  })

  test.each([
    [
      'a DOCTYPE with an entity',
      '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
    ],
    [
      'an image from another site',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://evil.example/x.png" width="10" height="10"/></svg>',
    ],
    [
      'a file on the server',
      "<svg xmlns='http://www.w3.org/2000/svg'><image href='file:///etc/passwd'/></svg>",
    ],
    [
      'a style url()',
      '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(https://evil.example/p)"/></svg>',
    ],
    [
      'a style import',
      '<svg xmlns="http://www.w3.org/2000/svg"><style>@import "https://evil.example/a.css";</style></svg>',
    ],
    [
      'an XInclude',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="/etc/passwd"/></svg>',
    ],
  ])('an SVG with %s is refused before rasterising', async (_what, svg) => {
    expect(unsafeSvg(svg)).not.toBeNull()
    await expectRefused(processLogo(text(svg)), 'logoUnsafe')
  })

  test('references inside the file (gradients, embedded PNGs) are fine', () => {
    expect(
      unsafeSvg(
        '<svg xmlns="http://www.w3.org/2000/svg"><defs><linearGradient id="g"/></defs><rect fill="url(#g)"/><use href="#g"/><image href="data:image/png;base64,AAAA"/></svg>',
      ),
    ).toBeNull()
  })
})
