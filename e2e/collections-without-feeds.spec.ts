// A server that does not list what an album or a list holds (Movable Type's family; here Blogdesk's service started
// without that extension): the album and the list show what Blogdesk sent, under "Sent from Blogdesk", with one line
// saying why older ones are not there.
import { join } from 'node:path'
import { DEMO_PHOTOS_FOLDER } from '../src-service/demo/photos'
import { startServiceProcess } from '../src-service/testing/service-process'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { chooseFiles } from './harness/files'
import { saveScreenshot } from './harness/screenshots'
import { CollectionsModel } from './models/collections'

test('on a server without album and list feeds, an album and a list show what Blogdesk sent, and say why', async ({ app, workDir }, testInfo) => {
  test.slow()
  const peer = await startServiceProcess(join(workDir, 'peer'), 0, { noCollectionFeeds: true })
  try {
    const collections = new CollectionsModel(app.page)
    await app.addAccount(peer.sandbox)

    await collections.openAlbum('Summer in Lisbon')
    const sent = collections.contents('Sent from Blogdesk')
    await expect(sent).toContainText('This server does not offer apps a list of the album’s photos, so only those sent from Blogdesk show here')
    await expect(sent).toContainText('No photos sent from here yet.')
    await expect(app.main.getByText('the server does not let apps list them')).toHaveCount(0)
    await expectAccessible(app.page, testInfo, 'album without a feed')
    await saveScreenshot(app.page, testInfo, 'album-without-feed.png')

    await chooseFiles(collections.fileInput, [join(DEMO_PHOTOS_FOLDER, 'tram-28.jpg')])
    await expect(collections.fact('tram-28.jpg', 'Camera')).toHaveText('Blogdesk Sandbox Camera')
    await collections.uploadButton.click()
    await expect(collections.uploadSummary).toHaveText('The photo is in the album.')
    await expect.poll(() => collections.photoTitles()).toEqual(['tram-28'])
    await saveScreenshot(app.page, testInfo, 'album-without-feed-sent.png')
    await app.page.emulateMedia({ colorScheme: 'dark' })
    await saveScreenshot(app.page, testInfo, 'album-without-feed-sent-dark.png')
    await app.page.emulateMedia({ colorScheme: 'light' })

    // The list's type is not told either: the person says what it holds.
    await collections.openList('Specifications')
    await expect(app.main.getByRole('form', { name: 'What the list holds' }), 'the server does not say what a list holds').toBeVisible()
    await expect(collections.contents('Sent from Blogdesk')).toContainText('This server does not offer apps a list of the list’s items')
    await expectAccessible(app.page, testInfo, 'list type chooser')
    await saveScreenshot(app.page, testInfo, 'lists-type.png')
    await collections.chooseListType('Links')
    const links = collections.addForm('Specifications')
    await links.getByLabel('Address (URL)').fill('https://www.rfc-editor.org/rfc/rfc5023')
    await links.getByRole('button', { name: 'Add link' }).click()
    await expect(collections.item('https://www.rfc-editor.org/rfc/rfc5023')).toContainText('Just added')
    await expectAccessible(app.page, testInfo, 'list without a feed')
    await saveScreenshot(app.page, testInfo, 'list-without-feed.png')
    await app.page.emulateMedia({ colorScheme: 'dark' })
    await saveScreenshot(app.page, testInfo, 'list-without-feed-dark.png')
  } finally {
    await peer.stop()
  }
})
