import { createHash, randomBytes } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LocalStore } from './database'
import { MediaCopies } from './media-copies'

const demoPhoto = join(import.meta.dirname, '..', '..', '..', 'resources', 'demo-photos', 'tram-28.jpg')
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const WEBLOG = 'http://127.0.0.1:4567/t/atom/weblog/blog_id=1'
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe('MediaCopies', () => {
  let dir: string
  let dataDir: string
  let store: LocalStore
  let media: MediaCopies
  const source = (name: string, bytes: Uint8Array) => {
    const path = join(dir, name)
    writeFileSync(path, bytes)
    return path
  }
  const mediaFiles = () => readdirSync(join(dataDir, 'media')).sort()

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blogdesk-media-'))
    dataDir = join(dir, 'data')
    mkdirSync(dataDir)
    store = LocalStore.open(join(dataDir, 'blogdesk.sqlite'))
    media = new MediaCopies(store)
  })
  afterEach(() => {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('copies a photo into the data dir under its content hash, so it survives the original being deleted', async () => {
    const original = join(dir, 'tram.jpg')
    copyFileSync(demoPhoto, original)
    const bytes = readFileSync(original)

    const copy = await media.add(original, { imageOnly: true })
    rmSync(original)
    expect(copy).toEqual({ hash: sha256(bytes), path: join(dataDir, 'media', `${sha256(bytes)}.jpg`), type: 'image/jpeg', size: bytes.length })
    expect(readFileSync(copy.path).equals(bytes)).toBe(true)
    expect(media.get(copy.hash)).toEqual(copy)
  })

  it('keeps the same bytes once, however often and under whatever names they are added', async () => {
    const bytes = readFileSync(demoPhoto)
    const first = await media.add(source('a.jpg', bytes))
    const second = await media.add(source('the same, renamed.jpeg', bytes))
    const concurrent = await Promise.all([media.add(source('c.jpg', bytes)), media.add(source('d.jpg', bytes))])
    expect([second, ...concurrent]).toEqual([first, first, first])
    expect(mediaFiles()).toEqual([`${first.hash}.jpg`])
    expect(store.all('SELECT hash FROM media_copies')).toEqual([{ hash: first.hash }])
  })

  it('copies a file larger than a chunk whole, hashing it as it streams', async () => {
    const bytes = Buffer.concat([PNG_SIGNATURE, randomBytes(3 * 1024 * 1024 + 17)])
    const copy = await media.add(source('big.png', bytes), { imageOnly: true })
    expect(copy).toMatchObject({ hash: sha256(bytes), type: 'image/png', size: bytes.length })
    expect(readFileSync(copy.path).equals(bytes)).toBe(true)
  })

  it('names the type from the bytes, not from the file name', async () => {
    const copy = await media.add(source('holiday.jpg', Buffer.concat([PNG_SIGNATURE, randomBytes(100)])))
    expect(copy.type).toBe('image/png')
    expect(copy.path.endsWith('.png')).toBe(true)
  })

  it('refuses what is not a photo when a photo was asked for, and keeps nothing of it', async () => {
    const document = source('photo.jpg', Buffer.from('%PDF-1.7 not a photo at all'))
    await expect(media.add(document, { imageOnly: true })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: '“photo.jpg” is not a photo Blogdesk can send: it takes JPEG, PNG, GIF, WebP, HEIC or AVIF images.',
    })
    expect(mediaFiles()).toEqual([])
    expect(store.all('SELECT * FROM media_copies')).toEqual([])
  })

  it('takes any other file for an upload, keeping its own extension when it is a plain one', async () => {
    const bytes = Buffer.from('%PDF-1.7 a programme for the concert')
    const copy = await media.add(source('Programme.PDF', bytes))
    expect(copy).toMatchObject({ type: 'application/octet-stream', size: bytes.length })
    expect(copy.path).toBe(join(dataDir, 'media', `${sha256(bytes)}.pdf`))
    const odd = await media.add(source('notes.tar.gz?', Buffer.from('odd name')))
    expect(odd.path.endsWith('.bin')).toBe(true)
  })

  it('refuses a file over the size cap before copying any of it, saying how large it is and what fits', async () => {
    const small = new MediaCopies(store, { maxBytes: 1024 * 1024 })
    const large = source('large.jpg', Buffer.concat([readFileSync(demoPhoto), randomBytes(2 * 1024 * 1024)]))
    await expect(small.add(large, { imageOnly: true })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: '“large.jpg” is 2.0 MB; Blogdesk takes files up to 1.0 MB. Export a smaller version and use that.',
    })
    expect(mediaFiles()).toEqual([])
  })

  it('says so, in words, when the file is gone, empty or a folder', async () => {
    await expect(media.add(join(dir, 'moved.jpg'))).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringMatching(/^“moved\.jpg” is no longer at .+moved\.jpg: it was moved or deleted\. Add it again from where it is now\.$/),
    })
    await expect(media.add(source('empty.jpg', new Uint8Array(0)))).rejects.toMatchObject({ message: expect.stringMatching(/is empty/) })
    await expect(media.add(dir)).rejects.toMatchObject({ code: 'invalid-argument', message: expect.stringMatching(/is a folder, not a file/) })
  })

  it('copies again when the kept copy went missing', async () => {
    const path = source('a.jpg', readFileSync(demoPhoto))
    const copy = await media.add(path)
    rmSync(copy.path)
    expect(await media.add(path)).toEqual(copy)
    expect(existsSync(copy.path)).toBe(true)
  })

  it('clears half-copied files an interrupted app left behind', async () => {
    const leftover = join(dataDir, 'media', '.incoming-3b1d')
    writeFileSync(leftover, 'half a photo')
    const kept = await media.add(source('a.jpg', readFileSync(demoPhoto)))
    new MediaCopies(store)
    expect(mediaFiles()).toEqual([`${kept.hash}.jpg`])
  })

  it('remembers where each weblog put an upload, so the same image in two posts goes up once', async () => {
    const copy = await media.add(source('a.jpg', readFileSync(demoPhoto)))
    expect(media.uploadedUrl(WEBLOG, copy.hash)).toBeNull()
    media.rememberUpload(WEBLOG, copy.hash, 'http://127.0.0.1:4567/melody/uploads/tram.jpg')

    store.close()
    store = LocalStore.open(join(dataDir, 'blogdesk.sqlite'))
    media = new MediaCopies(store)
    expect(media.uploadedUrl(WEBLOG, copy.hash)).toBe('http://127.0.0.1:4567/melody/uploads/tram.jpg')
    expect(media.uploadedUrl('http://127.0.0.1:4567/t/atom/weblog/blog_id=2', copy.hash)).toBeNull()
  })
})
