import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'

// Photos for the upload tests, made with sharp itself (or by hand, for the files that are not
// images): good ones with what must be stripped, and hostile ones.

/** width × height, the left half red and the right half blue. */
export function halves(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      pixels.set(x < width / 2 ? [255, 0, 0] : [0, 0, 255], (y * width + x) * 3)
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer()
}

/** A phone photo: EXIF with camera, date and GPS position, orientation 6 (turn 90° clockwise), XMP, ICC. */
export async function phoneJpeg(): Promise<Buffer> {
  return sharp(await halves(300, 200))
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'Acme', Model: 'Phone 12', DateTime: '2026:01:02 03:04:05' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '35/1 41/1 2212/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '139/1 41/1 3012/100',
      },
    })
    .withMetadata({ orientation: 6 })
    .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>')
    .withIccProfile('p3')
    .toBuffer()
}

/** A small plain PNG with transparency. */
export function plainPng(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 200, g: 120, b: 40, alpha: 0.5 } } })
    .png()
    .toBuffer()
}

/** The TIFF tag of the GPS sub-directory (0x8825) in an EXIF block, either byte order. */
export function hasGpsTag(exif: Buffer): boolean {
  return exif.includes(Buffer.from([0x25, 0x88])) || exif.includes(Buffer.from([0x88, 0x25]))
}

/** A valid PNG of width × height 1-bit black pixels: a few kilobytes that decode to gigabytes. */
export function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 1 // bit depth
  header[9] = 0 // greyscale
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8))) // filter byte 0 and zeros, each row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
