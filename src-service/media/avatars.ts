// Avatars: a person's initials, white on a colour, drawn as SVG strokes (no font, so every machine draws the same
// picture) and rendered to PNG by sharp at the size asked for. Renderings are cached on disk under names made of a
// hash of the picture and the size, so a renamed person gets a new picture and the same picture is drawn once.
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'

/** The sizes offered (TypePad's usual specs among them); a fixed list bounds what the disk cache can hold. */
export const AVATAR_SIZES = [16, 20, 25, 32, 35, 40, 48, 50, 64, 75, 96, 100, 115, 128, 150, 200, 220, 250, 320, 500] as const

/** Colours with enough contrast for white strokes, for people who did not choose one. */
const PALETTE = ['#b5485d', '#c0622f', '#8a6d1f', '#4f7a28', '#2a7d6b', '#2d6f9e', '#5a5bb0', '#8a4f9e', '#6b6b6b', '#a34a7a']

/** Strokes of each capital on a 4 × 6 grid (x right, y down), as polylines. */
const GLYPHS: Readonly<Record<string, readonly (readonly [number, number])[][]>> = {
  A: [[[0, 6], [0, 2], [2, 0], [4, 2], [4, 6]], [[0, 3.5], [4, 3.5]]],
  B: [[[0, 3], [3, 3], [4, 4], [4, 5], [3, 6], [0, 6], [0, 0], [3, 0], [4, 1], [4, 2], [3, 3]]],
  C: [[[4, 1], [3, 0], [1, 0], [0, 1], [0, 5], [1, 6], [3, 6], [4, 5]]],
  D: [[[0, 0], [0, 6], [2.5, 6], [4, 4.5], [4, 1.5], [2.5, 0], [0, 0]]],
  E: [[[4, 0], [0, 0], [0, 6], [4, 6]], [[0, 3], [3, 3]]],
  F: [[[4, 0], [0, 0], [0, 6]], [[0, 3], [3, 3]]],
  G: [[[4, 1], [3, 0], [1, 0], [0, 1], [0, 5], [1, 6], [3, 6], [4, 5], [4, 3.5], [2.5, 3.5]]],
  H: [[[0, 0], [0, 6]], [[4, 0], [4, 6]], [[0, 3], [4, 3]]],
  I: [[[1, 0], [3, 0]], [[2, 0], [2, 6]], [[1, 6], [3, 6]]],
  J: [[[4, 0], [4, 5], [3, 6], [1, 6], [0, 5]]],
  K: [[[0, 0], [0, 6]], [[4, 0], [0, 4]], [[1.5, 2.5], [4, 6]]],
  L: [[[0, 0], [0, 6], [4, 6]]],
  M: [[[0, 6], [0, 0], [2, 3], [4, 0], [4, 6]]],
  N: [[[0, 6], [0, 0], [4, 6], [4, 0]]],
  O: [[[1, 0], [3, 0], [4, 1], [4, 5], [3, 6], [1, 6], [0, 5], [0, 1], [1, 0]]],
  P: [[[0, 6], [0, 0], [3, 0], [4, 1], [4, 2], [3, 3], [0, 3]]],
  Q: [[[1, 0], [3, 0], [4, 1], [4, 5], [3, 6], [1, 6], [0, 5], [0, 1], [1, 0]], [[2.5, 4.5], [4, 6]]],
  R: [[[0, 6], [0, 0], [3, 0], [4, 1], [4, 2], [3, 3], [0, 3]], [[2, 3], [4, 6]]],
  S: [[[4, 1], [3, 0], [1, 0], [0, 1], [0, 2], [1, 3], [3, 3], [4, 4], [4, 5], [3, 6], [1, 6], [0, 5]]],
  T: [[[0, 0], [4, 0]], [[2, 0], [2, 6]]],
  U: [[[0, 0], [0, 5], [1, 6], [3, 6], [4, 5], [4, 0]]],
  V: [[[0, 0], [2, 6], [4, 0]]],
  W: [[[0, 0], [1, 6], [2, 3], [3, 6], [4, 0]]],
  X: [[[0, 0], [4, 6]], [[4, 0], [0, 6]]],
  Y: [[[0, 0], [2, 3], [4, 0]], [[2, 3], [2, 6]]],
  Z: [[[0, 0], [4, 0], [0, 6], [4, 6]]],
}

export interface AvatarSubject {
  /** Stable per person: picks the colour when `color` is null. */
  urlId: string
  displayName: string
  color: string | null
}

/** Up to two capitals: the first letters of the first and last words, accents removed; letters outside A–Z skipped. */
export function initialsOf(displayName: string): string {
  const words = displayName
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .split(/[^A-Z]+/)
    .filter((word) => word !== '')
  if (words.length === 0) return ''
  return words.length === 1 ? words[0]![0]! : `${words[0]![0]}${words.at(-1)![0]}`
}

/** The avatar as an SVG document on a 100 × 100 canvas. */
export function avatarSvg(subject: AvatarSubject): string {
  const background = subject.color ?? PALETTE[createHash('sha256').update(subject.urlId).digest()[0]! % PALETTE.length]!
  const letters = [...initialsOf(subject.displayName)]
  const scale = 7
  const gap = 10
  const width = letters.length * 4 * scale + Math.max(0, letters.length - 1) * gap
  const left = (100 - width) / 2
  const top = (100 - 6 * scale) / 2
  const strokes = letters.flatMap((letter, index) =>
    GLYPHS[letter]!.map((line) => {
      const x0 = left + index * (4 * scale + gap)
      const points = line.map(([x, y]) => `${round(x0 + x * scale)},${round(top + y * scale)}`).join(' ')
      return `<polyline points="${points}"/>`
    }),
  )
  // A person without initials gets a plain dot rather than a blank square.
  const mark = strokes.length > 0 ? strokes.join('') : '<circle cx="50" cy="50" r="12" fill="#ffffff" stroke="none"/>'
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">' +
    `<rect width="100" height="100" fill="${background}"/>` +
    '<g fill="none" stroke="#ffffff" stroke-width="7" stroke-linecap="round" stroke-linejoin="round">' +
    `${mark}</g></svg>`
  )
}

function round(value: number): string {
  return String(Math.round(value * 100) / 100)
}

export class AvatarCache {
  readonly #folder: string
  readonly #rendering = new Map<string, Promise<Buffer>>()

  private constructor(folder: string) {
    this.#folder = folder
  }

  /** The cache under <mediaDir>/avatars, created if missing; instances sharing a media dir share it (files are renamed
   * into place whole). */
  static open(mediaDir: string): AvatarCache {
    const folder = join(mediaDir, 'avatars')
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    return new AvatarCache(folder)
  }

  /** The PNG of `subject`'s avatar, `size` pixels square (one of AVATAR_SIZES). */
  png(subject: AvatarSubject, size: number): Promise<Buffer> {
    const svg = avatarSvg(subject)
    const name = `${createHash('sha256').update(svg).digest('hex').slice(0, 32)}-${size}.png`
    // Two requests for the same picture share one rendering.
    let pending = this.#rendering.get(name)
    if (!pending) {
      pending = this.#readOrRender(name, svg, size).finally(() => this.#rendering.delete(name))
      this.#rendering.set(name, pending)
    }
    return pending
  }

  async #readOrRender(name: string, svg: string, size: number): Promise<Buffer> {
    const file = join(this.#folder, name)
    try {
      return await readFile(file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    const png = await sharp(Buffer.from(svg), { density: (72 * size) / 100 })
      .resize(size, size)
      .png({ compressionLevel: 9 })
      .toBuffer()
    // Written aside and renamed into place, so a reader never finds half a file.
    const partial = join(this.#folder, `${randomBytes(8).toString('hex')}.partial`)
    try {
      await writeFile(partial, png, { mode: 0o600 })
      await rename(partial, file)
    } finally {
      await rm(partial, { force: true })
    }
    return png
  }
}
