// Makes the sandbox's demo photos: `npx tsx resources/demo-photos/make-demo-photos.ts`. Run once; the JPEGs it
// writes beside this script are kept in the repo. The imagery is drawn from SVG (no fonts needed), and each photo
// carries the metadata a camera or a photo editor would write, so the service's EXIF and IPTC extraction has real
// work to do in the sandbox: EXIF DateTimeOriginal, Make/Model, GPS and ImageDescription, and on some an IPTC
// caption, keywords, city and country (Photoshop APP13), which sharp cannot write by itself.
import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import exifr from 'exifr'
import sharp, { type Exif } from 'sharp'

const WIDTH = 1200
const HEIGHT = 800
const MAX_BYTES = 150 * 1024

interface DemoPhoto {
  file: string
  svg: string
  /** EXIF DateTimeOriginal, camera-local time as cameras write it. */
  taken: string
  /** EXIF ImageDescription; EXIF text is ASCII (libvips would transliterate anything else). */
  description?: string
  /** Decimal degrees; west and south are negative. */
  gps?: { latitude: number; longitude: number }
  /** IPTC text is declared UTF-8, so it may say what EXIF cannot. */
  iptc?: { caption?: string; keywords?: string[]; city?: string; country?: string }
  /** JPEG quality; busy patterns get less, to stay under MAX_BYTES. */
  quality?: number
}

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${body}</svg>`

const photos: DemoPhoto[] = [
  {
    file: 'tagus-sunset.jpg',
    taken: '2024:07:14 20:41:07',
    description: 'The sun going down over the Tagus, seen from Cais do Sodre',
    gps: { latitude: 38.70561, longitude: -9.14497 },
    svg: svg(`
      <defs>
        <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="#2b1d4e"/><stop offset="0.45" stop-color="#c8486b"/>
          <stop offset="0.62" stop-color="#f59e5b"/><stop offset="0.63" stop-color="#3b4a78"/>
          <stop offset="1" stop-color="#101a3a"/>
        </linearGradient>
        <radialGradient id="sun" cx="0.5" cy="0.5" r="0.5">
          <stop offset="0" stop-color="#fff4c2"/><stop offset="0.6" stop-color="#ffd27a"/>
          <stop offset="1" stop-color="#ffb04a" stop-opacity="0"/>
        </radialGradient>
      </defs>
      <rect width="1200" height="800" fill="url(#sky)"/>
      <circle cx="760" cy="470" r="150" fill="url(#sun)"/>
      <path d="M0 500 L120 470 L260 490 L420 455 L560 480 L700 462 L900 488 L1060 470 L1200 486 L1200 505 L0 505 Z" fill="#1c1530"/>
      <g stroke="#ffcf8a" stroke-linecap="round" opacity="0.7">
        <line x1="640" y1="540" x2="880" y2="540" stroke-width="6"/>
        <line x1="670" y1="580" x2="850" y2="580" stroke-width="5"/>
        <line x1="700" y1="625" x2="820" y2="625" stroke-width="4"/>
        <line x1="725" y1="675" x2="795" y2="675" stroke-width="3"/>
      </g>
      <path d="M300 600 l60 -8 l50 8 l-10 12 h-90 Z" fill="#0b0f22"/>
      <line x1="352" y1="592" x2="352" y2="540" stroke="#0b0f22" stroke-width="4"/>`),
  },
  {
    file: 'tram-28.jpg',
    taken: '2024:07:15 10:12:44',
    description: 'Tram 28 climbing towards Graca',
    gps: { latitude: 38.71633, longitude: -9.13103 },
    iptc: { keywords: ['tram', 'Lisbon', 'Graça'], city: 'Lisbon', country: 'Portugal' },
    svg: svg(`
      <defs>
        <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="#7cc4f2"/><stop offset="1" stop-color="#d8f0ff"/>
        </linearGradient>
        <linearGradient id="street" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="#b9a78f"/><stop offset="1" stop-color="#7a6a58"/>
        </linearGradient>
      </defs>
      <rect width="1200" height="800" fill="url(#sky)"/>
      <rect x="0" y="120" width="260" height="520" fill="#e9d8b4"/>
      <rect x="940" y="80" width="260" height="560" fill="#f2b8a2"/>
      <g fill="#5f7fa6">
        <rect x="40" y="180" width="60" height="90"/><rect x="150" y="180" width="60" height="90"/>
        <rect x="40" y="330" width="60" height="90"/><rect x="150" y="330" width="60" height="90"/>
        <rect x="990" y="150" width="60" height="90"/><rect x="1100" y="150" width="60" height="90"/>
        <rect x="990" y="310" width="60" height="90"/><rect x="1100" y="310" width="60" height="90"/>
      </g>
      <path d="M0 640 L1200 560 L1200 800 L0 800 Z" fill="url(#street)"/>
      <g transform="rotate(-4 600 520)">
        <rect x="330" y="330" width="560" height="260" rx="34" fill="#f6c915"/>
        <rect x="330" y="500" width="560" height="40" fill="#f4f0e6"/>
        <rect x="330" y="540" width="560" height="50" rx="10" fill="#7d1f1a"/>
        <g fill="#2f3d4f">
          <rect x="370" y="370" width="90" height="110" rx="10"/><rect x="480" y="370" width="90" height="110" rx="10"/>
          <rect x="590" y="370" width="90" height="110" rx="10"/><rect x="700" y="370" width="90" height="110" rx="10"/>
          <rect x="810" y="370" width="60" height="110" rx="10"/>
        </g>
        <line x1="610" y1="330" x2="700" y2="180" stroke="#333" stroke-width="6"/>
        <circle cx="420" cy="605" r="26" fill="#222"/><circle cx="800" cy="605" r="26" fill="#222"/>
      </g>
      <line x1="0" y1="175" x2="1200" y2="165" stroke="#333" stroke-width="3"/>`),
  },
  {
    file: 'azulejos.jpg',
    quality: 74,
    taken: '2024:07:16 15:03:19',
    description: 'Blue and white azulejos on a facade in Alfama',
    gps: { latitude: 38.71178, longitude: -9.13029 },
    iptc: {
      caption: 'Hand-painted tiles on a house near the Miradouro de Santa Luzia',
      keywords: ['azulejos', 'tiles', 'Alfama'],
      city: 'Lisbon',
      country: 'Portugal',
    },
    svg: svg(`
      <defs>
        <pattern id="tile" width="150" height="150" patternUnits="userSpaceOnUse">
          <rect width="150" height="150" fill="#f4f1ea"/>
          <rect width="150" height="150" fill="none" stroke="#c9c4b8" stroke-width="3"/>
          <circle cx="75" cy="75" r="42" fill="none" stroke="#1f4fa3" stroke-width="10"/>
          <path d="M75 20 Q95 75 75 130 Q55 75 75 20 Z" fill="#2a66c4"/>
          <path d="M20 75 Q75 95 130 75 Q75 55 20 75 Z" fill="#2a66c4"/>
          <circle cx="75" cy="75" r="12" fill="#f2c230"/>
          <path d="M0 0 L24 0 L0 24 Z M150 0 L126 0 L150 24 Z M0 150 L24 150 L0 126 Z M150 150 L126 150 L150 126 Z" fill="#1f4fa3"/>
        </pattern>
        <linearGradient id="light" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stop-color="#fff" stop-opacity="0.25"/><stop offset="1" stop-color="#000" stop-opacity="0.25"/>
        </linearGradient>
      </defs>
      <rect width="1200" height="800" fill="url(#tile)"/>
      <rect width="1200" height="800" fill="url(#light)"/>`),
  },
  {
    file: 'alfama-rooftops.jpg',
    taken: '2024:07:17 18:27:52',
    description: 'Terracotta rooftops of Alfama down to the river',
    gps: { latitude: 38.71092, longitude: -9.12953 },
    svg: svg(`
      <defs>
        <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="#8fb8de"/><stop offset="1" stop-color="#f6d6b0"/>
        </linearGradient>
      </defs>
      <rect width="1200" height="800" fill="url(#sky)"/>
      <rect x="0" y="300" width="1200" height="80" fill="#6f9cc0"/>
      <g stroke="#8a3b22" stroke-width="3">
        <path d="M-20 460 L140 380 L300 460 Z" fill="#c9583a"/><rect x="0" y="460" width="280" height="340" fill="#efe2c8"/>
        <path d="M240 430 L420 350 L600 430 Z" fill="#d8693f"/><rect x="260" y="430" width="320" height="370" fill="#f3d9a4"/>
        <path d="M540 480 L700 400 L860 480 Z" fill="#bf4f33"/><rect x="560" y="480" width="280" height="320" fill="#e8c7b5"/>
        <path d="M800 420 L980 340 L1160 420 Z" fill="#d46a44"/><rect x="820" y="420" width="320" height="380" fill="#f7ead0"/>
        <path d="M1080 470 L1200 410 L1320 470 Z" fill="#c65a3b"/><rect x="1100" y="470" width="200" height="330" fill="#e4d0a8"/>
      </g>
      <g fill="#4a5d73">
        <rect x="60" y="520" width="50" height="70"/><rect x="170" y="520" width="50" height="70"/>
        <rect x="320" y="500" width="50" height="70"/><rect x="460" y="500" width="50" height="70"/>
        <rect x="620" y="540" width="50" height="70"/><rect x="740" y="540" width="50" height="70"/>
        <rect x="880" y="480" width="50" height="70"/><rect x="1020" y="480" width="50" height="70"/>
      </g>
      <circle cx="980" cy="150" r="60" fill="#fff6d5" opacity="0.9"/>`),
  },
  {
    file: 'belem-pastries.jpg',
    taken: '2024:07:18 09:05:30',
    description: 'Pasteis de nata, still warm',
    svg: svg(`
      <defs>
        <radialGradient id="table" cx="0.5" cy="0.45" r="0.75">
          <stop offset="0" stop-color="#f3e3c8"/><stop offset="1" stop-color="#a7825a"/>
        </radialGradient>
        <radialGradient id="custard" cx="0.45" cy="0.4" r="0.6">
          <stop offset="0" stop-color="#ffe58a"/><stop offset="0.7" stop-color="#f2b441"/>
          <stop offset="1" stop-color="#6b3a12"/>
        </radialGradient>
      </defs>
      <rect width="1200" height="800" fill="url(#table)"/>
      <ellipse cx="600" cy="430" rx="470" ry="270" fill="#fbfbf8" stroke="#d9d4ca" stroke-width="8"/>
      <g stroke="#b07a3c" stroke-width="10">
        <circle cx="430" cy="380" r="120" fill="url(#custard)"/>
        <circle cx="740" cy="360" r="120" fill="url(#custard)"/>
        <circle cx="590" cy="540" r="120" fill="url(#custard)"/>
      </g>
      <g fill="#4a2a10" opacity="0.6">
        <circle cx="400" cy="350" r="18"/><circle cx="470" cy="410" r="12"/><circle cx="760" cy="330" r="20"/>
        <circle cx="700" cy="390" r="11"/><circle cx="610" cy="510" r="16"/><circle cx="560" cy="570" r="10"/>
      </g>`),
  },
]

/** EXIF rational text for sharp/libvips: degrees, minutes, seconds (hundredths) of an absolute coordinate. */
function dms(value: number): string {
  const absolute = Math.abs(value)
  const degrees = Math.floor(absolute)
  const minutes = Math.floor((absolute - degrees) * 60)
  const hundredthsOfSeconds = Math.round(((absolute - degrees) * 60 - minutes) * 60 * 100)
  return `${degrees}/1 ${minutes}/1 ${hundredthsOfSeconds}/100`
}

function exifOf(photo: DemoPhoto): Exif {
  return {
    IFD0: {
      Make: 'Blogdesk',
      Model: 'Sandbox Camera',
      DateTime: photo.taken,
      ...(photo.description ? { ImageDescription: photo.description } : {}),
    },
    IFD2: { DateTimeOriginal: photo.taken },
    ...(photo.gps
      ? {
          IFD3: {
            GPSLatitudeRef: photo.gps.latitude < 0 ? 'S' : 'N',
            GPSLatitude: dms(photo.gps.latitude),
            GPSLongitudeRef: photo.gps.longitude < 0 ? 'W' : 'E',
            GPSLongitude: dms(photo.gps.longitude),
          },
        }
      : {}),
  }
}

/** One IPTC-IIM dataset: tag marker, record, dataset number, 16-bit length, data. */
function iimDataset(record: number, dataset: number, data: Buffer): Buffer {
  const header = Buffer.from([0x1c, record, dataset, data.length >> 8, data.length & 0xff])
  return Buffer.concat([header, data])
}

/** A Photoshop APP13 segment holding one IPTC-IIM resource (8BIM 0x0404), its text declared UTF-8. */
function iptcSegment(iptc: NonNullable<DemoPhoto['iptc']>): Buffer {
  const text = (value: string) => Buffer.from(value, 'utf8')
  const datasets = [
    iimDataset(1, 90, Buffer.from([0x1b, 0x25, 0x47])), // coded character set: UTF-8
    iimDataset(2, 0, Buffer.from([0x00, 0x04])), // record version 4
    ...(iptc.caption ? [iimDataset(2, 120, text(iptc.caption))] : []),
    ...(iptc.keywords ?? []).map((keyword) => iimDataset(2, 25, text(keyword))),
    ...(iptc.city ? [iimDataset(2, 90, text(iptc.city))] : []),
    ...(iptc.country ? [iimDataset(2, 101, text(iptc.country))] : []),
  ]
  const iim = Buffer.concat(datasets)
  const size = Buffer.alloc(4)
  size.writeUInt32BE(iim.length)
  const resource = Buffer.concat([
    Buffer.from('8BIM', 'latin1'),
    Buffer.from([0x04, 0x04]), // resource id: IPTC-NAA
    Buffer.from([0x00, 0x00]), // empty Pascal name, padded to an even length
    size,
    iim,
    Buffer.alloc(iim.length % 2), // resource data is padded to an even length
  ])
  const payload = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource])
  const marker = Buffer.from([0xff, 0xed, (payload.length + 2) >> 8, (payload.length + 2) & 0xff])
  return Buffer.concat([marker, payload])
}

/** Puts `segment` after the JPEG's leading APPn segments (JFIF, EXIF), where readers look for metadata. */
function insertAfterAppSegments(jpeg: Buffer, segment: Buffer): Buffer {
  let offset = 2 // after SOI
  while (jpeg[offset] === 0xff && jpeg[offset + 1]! >= 0xe0 && jpeg[offset + 1]! <= 0xef) {
    offset += 2 + jpeg.readUInt16BE(offset + 2)
  }
  return Buffer.concat([jpeg.subarray(0, offset), segment, jpeg.subarray(offset)])
}

async function makePhoto(photo: DemoPhoto, folder: string): Promise<void> {
  let jpeg: Buffer = await sharp(Buffer.from(photo.svg))
    .jpeg({ quality: photo.quality ?? 84, mozjpeg: true })
    .withExif(exifOf(photo))
    .toBuffer()
  if (photo.iptc) jpeg = insertAfterAppSegments(jpeg, iptcSegment(photo.iptc))
  const file = join(folder, photo.file)
  writeFileSync(file, jpeg)

  // Check the file says what was meant, as the service's extraction will read it.
  const size = statSync(file).size
  if (size > MAX_BYTES) throw new Error(`${photo.file} is ${size} bytes; keep demo photos under ${MAX_BYTES}`)
  const read = (await exifr.parse(file, { iptc: true, reviveValues: false })) as Record<string, unknown>
  if (read['DateTimeOriginal'] !== photo.taken) throw new Error(`${photo.file}: DateTimeOriginal did not survive`)
  if (photo.gps && Math.abs(Number(read['latitude']) - photo.gps.latitude) > 1e-4) {
    throw new Error(`${photo.file}: GPS latitude did not survive`)
  }
  if (photo.iptc?.caption && read['Caption'] !== photo.iptc.caption) {
    throw new Error(`${photo.file}: the IPTC caption did not survive`)
  }
  console.log(`${photo.file}: ${size} bytes, taken ${String(read['DateTimeOriginal'])}`)
}

for (const photo of photos) await makePhoto(photo, import.meta.dirname)
