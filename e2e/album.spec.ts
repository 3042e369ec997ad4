// Dropping photos on an album: what Blogdesk reads from each before sending, the upload with its progress, and the
// photos on the service afterwards, with their position taken out where the person chose.
import { stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import exifr from 'exifr'
import { DEMO_PHOTOS_FOLDER } from '../src-service/demo/photos'
import { startServiceProcess } from '../src-service/testing/service-process'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { chooseFiles, dropFiles } from './harness/files'
import { saveScreenshot } from './harness/screenshots'
import { CollectionsModel } from './models/collections'

const ALBUM = 'Summer in Lisbon'
/** With a position (sunset, rooftops) and without one (pastries). */
const PHOTOS = ['tagus-sunset.jpg', 'alfama-rooftops.jpg', 'belem-pastries.jpg']

test('three photos dropped on an album show their details, upload with progress, and reach the service with GPS as chosen', async ({
  app,
  service,
  platform,
  workDir,
}, testInfo) => {
  // The album's grid, three photos and the accessibility of four screens: a long journey.
  test.slow()
  const collections = new CollectionsModel(app.page)
  await app.addAccount(service.sandbox)
  await collections.openAlbum(ALBUM)
  // The album's feed shows every photo in it, newest first, as a grid of thumbnails.
  await expect(collections.contents('Photos')).toBeVisible()
  await expect.poll(() => collections.photoTitles()).toHaveLength(5)
  expect(await collections.photoTitles()).toContain('Sunset over the Tagus')
  const tiles = collections.photoGrid.getByRole('button')
  await expect(tiles.first().locator('img')).toHaveAttribute('src', /\/media\/thumbnails\/\d+\.jpg$/)
  // Its alt text is its caption (or its title): the service read the sunset's from the photo's IPTC.
  await expect(tiles.filter({ hasText: 'Sunset over the Tagus' }).locator('img')).toHaveAttribute('alt', 'The sun going down over the Tagus, seen from Cais do Sodre')
  await expect(collections.photoGrid.locator('img[alt=""]'), 'every thumbnail says what it shows').toHaveCount(0)
  // One Tab stop; the arrow keys move between photos, Enter opens one's page.
  await expect(tiles.nth(1)).toHaveAttribute('tabindex', '-1')
  await tiles.first().focus()
  await app.page.keyboard.press('ArrowRight')
  await expect(tiles.nth(1)).toBeFocused()
  await app.page.keyboard.press('End')
  await expect(tiles.last()).toBeFocused()
  await app.page.keyboard.press('Home')
  await expect(tiles.first()).toBeFocused()
  await app.page.keyboard.press('Enter')
  await expect.poll(() => platform.openedLinks.at(-1) ?? '').toMatch(/\/albums\/\d+\/\d+$/)
  await expectAccessible(app.page, testInfo, 'album')
  await saveScreenshot(app.page, testInfo, 'album-grid.png')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'album-grid-dark.png')
  await app.page.emulateMedia({ colorScheme: 'light' })

  await dropFiles(collections.dropZone, PHOTOS.map((name) => join(DEMO_PHOTOS_FOLDER, name)))
  await expect(collections.fact('tagus-sunset.jpg', 'Camera')).toHaveText('Blogdesk Sandbox Camera')
  await expect(collections.fact('tagus-sunset.jpg', 'Taken')).toContainText('2024')
  await expect(collections.fact('tagus-sunset.jpg', 'Location')).toHaveText('38.7056° N, 9.1450° W')
  await expect(collections.fact('alfama-rooftops.jpg', 'Location')).toHaveText('38.7109° N, 9.1295° W')
  await expect(collections.fact('belem-pastries.jpg', 'Location')).toHaveText('Not recorded')
  await expect(collections.upload('tagus-sunset.jpg').locator('img')).toHaveAttribute('src', /^data:image\/jpeg;base64,/)

  const sunset = collections.upload('tagus-sunset.jpg')
  await expect(sunset.getByLabel('Title'), 'the title starts as the file name').toHaveValue('tagus-sunset')
  await sunset.getByLabel('Title').fill('Last light on the Tagus')
  await sunset.getByLabel('Caption').fill('From Cais do Sodré')
  await expect(collections.removeLocation('tagus-sunset.jpg'), 'the position goes unless the person keeps it').toBeChecked()
  await collections.removeLocation('alfama-rooftops.jpg').uncheck()
  await expect(collections.removeLocation('belem-pastries.jpg'), 'nothing to remove').toHaveCount(0)
  await expectAccessible(app.page, testInfo, 'album with dropped photos')
  await saveScreenshot(app.page, testInfo, 'album-dropped.png')

  await collections.uploadButton.click()
  await expect(collections.uploadSummary).toHaveText('All 3 photos are in the album.')
  const totalBytes = (await Promise.all(PHOTOS.map((name) => stat(join(DEMO_PHOTOS_FOLDER, name))))).reduce((sum, file) => sum + file.size, 0)
  await expect(collections.totalProgress, 'the total counts every byte of the three').toHaveAttribute('max', String(totalBytes))
  await expect(collections.totalProgress).toHaveAttribute('value', String(totalBytes))
  for (const name of PHOTOS) await expect(collections.upload(name)).toContainText('Uploaded')
  await expect.poll(async () => (await collections.photoTitles()).slice(0, 3)).toEqual(['belem-pastries', 'alfama-rooftops', 'Last light on the Tagus'])
  await saveScreenshot(app.page, testInfo, 'album-uploaded.png')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'album-uploaded-dark.png')
  await expectAccessible(app.page, testInfo, 'album after upload')

  // On the service, read over HTTP as anyone would: the album's page lists them, and each photo's page links the file.
  await app.main.getByRole('button', { name: 'View the album on the web' }).click()
  const albumPage = await (await fetch(platform.openedLinks.at(-1)!)).text()
  for (const title of ['Last light on the Tagus', 'alfama-rooftops', 'belem-pastries']) expect(albumPage).toContain(title)
  const storedPosition = async (fileName: string) => {
    await collections.upload(fileName).getByRole('button', { name: 'Open its page' }).click()
    const pageUrl = platform.openedLinks.at(-1)!
    const page = await (await fetch(pageUrl)).text()
    const original = new URL(/href="([^"]*\/media\/photos\/[^"]+)"/.exec(page)![1]!, pageUrl)
    return exifr.gps(Buffer.from(await (await fetch(original)).arrayBuffer()))
  }
  expect(await storedPosition('tagus-sunset.jpg'), 'removed before it left this computer').toBeUndefined()
  expect(await storedPosition('alfama-rooftops.jpg')).toMatchObject({ latitude: expect.closeTo(38.7109, 3), longitude: expect.closeTo(-9.1295, 3) })

  // Something that is not a photo is refused where it was dropped, in words.
  const notes = join(workDir, 'packing-list.txt')
  await writeFile(notes, 'Sunscreen, film, the good shoes.')
  await dropFiles(collections.dropZone, [notes])
  await expect(collections.upload('packing-list.txt').getByRole('alert')).toContainText('“packing-list.txt” is not a photo Blogdesk can read')
  await expect(collections.uploadButton, 'nothing new to upload').toBeDisabled()
  await saveScreenshot(app.page, testInfo, 'album-refused.png')
})

test('a photo uploaded while the service is down waits in the outbox, survives a restart with its thumbnail and details, and goes once the service is back', async ({
  app,
  service,
  platform,
  reopen,
}, testInfo) => {
  test.setTimeout(120_000)
  await app.addAccount(service.sandbox)
  const collections = new CollectionsModel(app.page)
  await collections.openAlbum(ALBUM)
  await collections.thumbnailsLoaded()
  await service.stop()

  await chooseFiles(collections.fileInput, [join(DEMO_PHOTOS_FOLDER, 'tram-28.jpg')])
  await expect(collections.fact('tram-28.jpg', 'Camera'), 'read on this computer: no server needed').toHaveText('Blogdesk Sandbox Camera')
  await collections.uploadButton.click()
  await expect(collections.upload('tram-28.jpg')).toContainText(/Queued|Waiting to try again/)
  await saveScreenshot(app.page, testInfo, 'album-queued-offline.png')

  const { page, bridge, pageErrors } = await reopen()
  const again = new CollectionsModel(page)
  await again.openAlbum(ALBUM)
  const restored = again.upload('tram-28')
  await expect(restored, 'still in the outbox after the restart').toContainText(/Queued|Waiting to try again/)
  // It still shows what was read from it when it was chosen.
  await expect(restored.locator('img')).toHaveAttribute('src', /^data:image\/jpeg;base64,/)
  await expect(again.fact('tram-28', 'Camera')).toHaveText('Blogdesk Sandbox Camera')
  await expect(again.fact('tram-28', 'Taken')).toContainText('2024')
  // The sidebar could not read the albums now, and says so.
  const stale = page.getByRole('navigation', { name: 'Accounts' }).getByText('Not up to date')
  await expect(stale.first()).toBeVisible()
  // Events the reopened core sent while the page was still loading had no page to reach: it reads the outbox as it opens.
  const failuresWhileLoading = bridge.deliveryFailures.length
  await saveScreenshot(page, testInfo, 'album-after-restart.png')

  const revived = await startServiceProcess(service.dataDir, service.port)
  try {
    await expect(restored).toContainText('Uploaded', { timeout: 60_000 })
    await expect.poll(async () => (await again.photoTitles())[0]).toBe('tram-28')
    await expect(stale, 'once something reached the server, the sidebar reads it again').toHaveCount(0)
    await page.getByRole('main').getByRole('button', { name: 'View the album on the web' }).click()
    const albumPage = await (await fetch(platform.openedLinks.at(-1)!)).text()
    expect(albumPage.match(/>tram-28</g), 'sent exactly once').toHaveLength(1)
    await saveScreenshot(page, testInfo, 'album-sent-after-restart.png')
  } finally {
    await revived.stop()
  }
  expect([...bridge.bugs, ...bridge.deliveryFailures.slice(failuresWhileLoading), ...pageErrors]).toEqual([])
})
