// Albums filled straight in the service's store, for the tests of album feeds (the service's own, and core reading
// them): numbered photos as an upload leaves them, without their files.
import type { PhotoFields } from '../store'

/**
 * Photo number `index`: taken at 10:00 on day `index` counted from the start of January 2026 and issued at 10:00 on
 * day `index` from the start of February, so the higher the number, the newer; its caption as given.
 */
export function numberedPhoto(index: number, caption: string | null): PhotoFields {
  return {
    title: `Photo ${index}`,
    caption,
    filename: `photo-${index}.jpg`,
    mediaType: 'image/jpeg',
    byteSize: 1000,
    sha256: String(index).padStart(64, '0'),
    width: 40,
    height: 30,
    location: null,
    latitude: null,
    longitude: null,
    taken: atTen(Date.UTC(2026, 0, index)),
    keywords: [],
    camera: null,
    issued: atTen(Date.UTC(2026, 1, index)),
    storedName: `photo-${index}.jpg`,
    thumbnailName: `photo-${index}-thumb.jpg`,
    thumbnailWidth: 40,
    thumbnailHeight: 30,
  }
}

const atTen = (day: number) => new Date(day + 10 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
