// The packaging configuration, checked without packaging (which downloads Electron): electron-builder loads and
// validates electron-builder.yml with its own schema, as `npm run dist` would, and every file it names is there.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import { DebugLogger } from 'builder-util'
import type { UserConfig } from 'electron-vite'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { serviceResources } from '../../src-service/resources'
import { APP_ID, PRODUCT_NAME } from './identity'

const root = join(import.meta.dirname, '..', '..')
const config = await getConfig(root, null, null)
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string; productName?: string }
// The build's configuration belongs to the tools' TypeScript project, so it is loaded by path, not imported.
const viteConfigFile = join(root, 'electron.vite.config.ts')
const viteConfig = ((await import(viteConfigFile)) as { default: UserConfig }).default

interface FileSet {
  from: string
  to: string
  filter?: string[]
}

const extraResources = config.extraResources as FileSet[]
const resourceTo = (from: string) => extraResources.find((set) => set.from === from)?.to

describe('electron-builder.yml', () => {
  it("is valid by electron-builder's own schema", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined()
  })

  it('would be refused with a misspelt option, so the check above means something', async () => {
    const misspelt = { ...config, linux: { ...config.linux, tagret: ['deb'] } }
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(/configuration\.linux/)
  })

  it('packs for Linux (AppImage, deb), macOS (dmg) and Windows (NSIS)', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb'])
    expect(config.mac?.target).toBe('dmg')
    expect(config.win?.target).toBe('nsis')
  })

  it('names the app as the main process does (Windows ties notifications to the id)', () => {
    expect(config.appId).toBe(APP_ID)
    expect(config.productName).toBe(PRODUCT_NAME)
    // Electron names the app from package.json (macOS: "Quit Blogdesk", not "Quit blogdesk").
    expect(packageJson.productName).toBe(PRODUCT_NAME)
  })

  it('packs the built app, whose main file package.json names', () => {
    expect(config.files).toEqual([{ filter: ['out/**'] }])
    expect(packageJson.main).toMatch(/^out\//)
  })

  it("lays the sandbox's resources out as the service expects them under --resources", () => {
    const packaged = serviceResources('/Resources')
    expect(packaged.catalogueFile).toBe(join('/Resources', resourceTo('resources/catalogue')!, 'books.json'))
    expect(packaged.demoPhotosFolder).toBe(join('/Resources', resourceTo('resources/demo-photos')!))
    for (const { from } of extraResources) expect(existsSync(join(root, from)), from).toBe(true)
    const photos = readdirSync(join(root, 'resources/demo-photos')).filter((file) => file.endsWith('.jpg'))
    expect(photos.length).toBeGreaterThan(0)
  })

  it('builds the sandbox service beside the main file, where the app starts it from', () => {
    const input = viteConfig.main?.build?.rollupOptions?.input as Record<string, string>
    expect(input['service']).toBe(join(root, 'src-service/server.ts'))
    expect(input['index']).toBe(join(root, 'src-main/index.ts'))
  })
})

describe('the app icon', () => {
  it('is a square PNG large enough for every platform (electron-builder makes the sizes from it)', async () => {
    expect(config.icon).toBe('resources/icon.png')
    const { format, width, height } = await sharp(join(root, 'resources/icon.png')).metadata()
    expect({ format, width, height }).toEqual({ format: 'png', width: 1024, height: 1024 })
  })

  it('is the picture in icon.svg, rendered at full size', async () => {
    const pixels = (file: string) => sharp(join(root, file)).ensureAlpha().raw().toBuffer()
    const [drawn, committed] = await Promise.all([pixels('resources/icon.svg'), pixels('resources/icon.png')])
    const largestDifference = drawn.reduce((largest, value, index) => Math.max(largest, Math.abs(value - committed[index]!)), 0)
    expect(largestDifference).toBeLessThan(8)
  })
})
