// The image helper with Electron's utilityProcess played by a Node child process (testing/fake-electron.ts) running
// src-main/image-worker.ts from its sources, making real thumbnails of the demo photos with sharp.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fake } from './testing/fake-electron'
import { ImageProcess } from '.'

vi.mock('electron', () => import('./testing/fake-electron'))

const builtEntry = '/opt/blogdesk/out/main/image-worker.js'
const photosDir = join(import.meta.dirname, '..', '..', 'resources', 'demo-photos')
const photo = join(photosDir, readdirSync(photosDir).find((name) => name.endsWith('.jpg'))!)

let images: ImageProcess

beforeEach(() => {
  fake.reset()
  fake.utilitySources.set(builtEntry, join(import.meta.dirname, '..', 'image-worker.ts'))
  images = new ImageProcess(builtEntry)
})

afterEach(async () => {
  images.stop()
  await Promise.all(fake.forks.map((fork) => fork.exited))
})

const pixelsOf = async (dataUrl: string) => sharp(Buffer.from(dataUrl.replace(/^data:image\/jpeg;base64,/, ''), 'base64')).metadata()

describe('the image helper', () => {
  it("makes thumbnails and the editor's previews in a process of its own, started once", async () => {
    const thumbnail = await images.run({ kind: 'thumbnail', path: photo })
    expect(thumbnail).toMatch(/^data:image\/jpeg;base64,/)
    const { width, height } = await pixelsOf(thumbnail)
    expect(Math.max(width!, height!)).toBe(240)
    const preview = await images.run({ kind: 'editor-preview', path: photo, type: 'image/jpeg', size: 10 * 1024 * 1024 })
    expect(preview.previewUrl).toMatch(/^data:image\/(webp|jpeg);base64,/)
    expect(fake.forks.map((fork) => fork.modulePath)).toEqual([builtEntry])
  }, 60_000)

  it('says, in words, that it cannot read what is not a picture', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blogdesk-images-'))
    try {
      const notAPhoto = join(dir, 'photo.jpg')
      writeFileSync(notAPhoto, 'not a JPEG at all')
      await expect(images.run({ kind: 'thumbnail', path: notAPhoto })).rejects.toThrow(/unsupported image format|Input file/i)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it('fails the jobs of a helper that crashed with a message, and starts a new one for the next', async () => {
    await images.run({ kind: 'thumbnail', path: photo })
    const working = images.run({ kind: 'thumbnail', path: photo })
    process.kill(fake.forks[0]!.pid, 'SIGKILL')
    await expect(working).rejects.toThrow(/image helper stopped .* before it was done/)
    expect(await images.run({ kind: 'thumbnail', path: photo })).toMatch(/^data:image\/jpeg;base64,/)
    expect(fake.forks).toHaveLength(2)
  }, 60_000)
})
