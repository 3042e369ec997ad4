// A list's items as rows, read from the list's feed; adding one item to a list of each type, with the fields of its type, and reading back what the service made of it.
// The test service runs --offline: the book catalogue is on this machine, so an ISBN is looked up; a link's page and
// a person's FOAF file are on the web, so the service keeps what it was given.
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { CollectionsModel } from './models/collections'

test('a list shows its items as rows; one item of each list type is added, and the list shows what the service filled in', async ({ app, service }, testInfo) => {
  // Four lists, each with its form, and the accessibility of each kind of screen: a long journey.
  test.slow()
  const collections = new CollectionsModel(app.page)
  await app.addAccount(service.sandbox)

  // The list's feed shows what it holds, newest first, and its items tell its type: nobody is asked.
  await collections.openList('Heavy rotation')
  await expect(collections.contents('Items')).toBeVisible()
  await expect(collections.item('Serge Gainsbourg - Cargo culte')).toContainText('Histoire de Melody Nelson')
  await expect(app.main.getByText('List · Music')).toBeVisible()
  await expect(app.main.getByRole('form', { name: 'What the list holds' })).toHaveCount(0)
  await expect(app.main.getByText('Sent from Blogdesk')).toHaveCount(0)
  await expectAccessible(app.page, testInfo, 'list rows')
  await saveScreenshot(app.page, testInfo, 'lists-rows.png')
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'lists-rows-dark.png')
  await app.page.emulateMedia({ colorScheme: 'light' })

  // Music: the server writes the title as "Artist - Song"; the rating is chosen with the keyboard.
  const music = collections.addForm('Heavy rotation')
  await music.getByLabel('Title').fill('O Pastor')
  await music.getByLabel('Artist').fill('Madredeus')
  await music.getByLabel('Album').fill('Existir')
  await collections.rate('Heavy rotation', 4)
  await expect(music.getByRole('radio', { name: '4 stars' })).toBeChecked()
  await music.getByLabel('Notes').fill('On every tram.')
  await expectAccessible(app.page, testInfo, 'music list form')
  await music.getByRole('button', { name: 'Add song' }).click()
  await expect(collections.item('Madredeus - O Pastor')).toContainText('Just added')
  await expect(collections.item('Madredeus - O Pastor').getByRole('img', { name: 'Rated 4 out of 5' })).toBeVisible()
  await expect(collections.item('Madredeus - O Pastor')).toContainText('On every tram.')
  await expect(music.getByLabel('Title'), 'the form is ready for the next song').toHaveValue('')
  await saveScreenshot(app.page, testInfo, 'lists-music.png')

  // Books: an ISBN alone; the catalogue gives the title and author.
  await collections.openList('On the desk')
  const books = collections.addForm('On the desk')
  await books.getByLabel('ISBN').fill('978-0-262-51087-5')
  await collections.rate('On the desk', 5)
  await books.getByLabel('Review').fill('Still the best first book.')
  await books.getByRole('button', { name: 'Add book' }).click()
  const sicp = 'Harold Abelson, Gerald Jay Sussman, Julie Sussman: Structure and Interpretation of Computer Programs, Second Edition'
  await expect(collections.itemField(sicp, 'Title')).toHaveText('Structure and Interpretation of Computer Programs, Second Edition · filled in by the server')
  await expect(collections.itemField(sicp, 'Author')).toHaveText('Harold Abelson, Gerald Jay Sussman, Julie Sussman · filled in by the server')
  await expect(collections.itemField(sicp, 'ISBN')).toHaveText('978-0-262-51087-5')
  await expect(collections.item(sicp).getByRole('img', { name: 'Rated 5 out of 5' })).toBeVisible()
  await saveScreenshot(app.page, testInfo, 'lists-book.png')

  // People: no rating; the one-line bio; offline, no FOAF file is read, so the person is as given.
  await collections.openList('People I read')
  const people = collections.addForm('People I read')
  await expect(people.getByRole('group', { name: 'Rating' }), 'people are not rated').toHaveCount(0)
  await people.getByLabel('Name').fill('Amália Rodrigues')
  await people.getByLabel('Homepage').fill('https://example.org/amalia/')
  await people.getByLabel('Email').fill('amalia@example.org')
  await people.getByLabel('One-line bio').fill('The voice of fado.')
  await people.getByRole('button', { name: 'Add person' }).click()
  await expect(collections.itemField('Amália Rodrigues', 'Homepage')).toHaveText('https://example.org/amalia/')
  await expect(collections.itemField('Amália Rodrigues', 'Email')).toHaveText('amalia@example.org')
  await expect(collections.item('Amália Rodrigues')).toContainText('The voice of fado.')
  await expect(collections.item('Amália Rodrigues')).toContainText('The server found nothing to add from the web: it kept what you gave.')

  // Links: offline the page's title is not fetched, so the server titles the link with its address.
  await collections.openList('Specifications')
  const links = collections.addForm('Specifications')
  await links.getByLabel('Address (URL)').fill('https://www.rfc-editor.org/rfc/rfc5023')
  await links.getByLabel('Notes').fill('AtomPub, where this protocol ended up.')
  await links.getByRole('button', { name: 'Add link' }).click()
  const rfc = 'https://www.rfc-editor.org/rfc/rfc5023'
  await expect(collections.itemField(rfc, 'Address')).toHaveText(rfc)
  await expect(collections.item(rfc)).toContainText('The server found nothing to add from the web: it kept what you gave.')
  await expectAccessible(app.page, testInfo, 'links list')
  await saveScreenshot(app.page, testInfo, 'lists-link.png')

  // The sidebar now says what each list holds.
  for (const [title, badge] of [
    ['Heavy rotation', 'Music'],
    ['On the desk', 'Books'],
    ['People I read', 'People'],
    ['Specifications', 'Links'],
  ]) {
    await expect(collections.sidebarSection('Lists').getByRole('button', { name: title })).toContainText(badge!)
  }
  await app.page.emulateMedia({ colorScheme: 'dark' })
  await saveScreenshot(app.page, testInfo, 'lists-link-dark.png')
})

test('an item the server would refuse is refused in words before it is queued', async ({ app, service }, testInfo) => {
  const collections = new CollectionsModel(app.page)
  await app.addAccount(service.sandbox)
  await collections.openList('Specifications')
  const links = collections.addForm('Specifications')
  await links.getByLabel('Address (URL)').fill('rfc-editor.org')
  await links.getByRole('button', { name: 'Add link' }).click()
  await expect(links.getByRole('alert')).toContainText(
    'The address “rfc-editor.org” is not a web address. Give the whole address, starting with http:// or https://.',
  )
  await expect(app.main.getByRole('region', { name: 'On their way' }), 'nothing was queued').toHaveCount(0)
  await saveScreenshot(app.page, testInfo, 'lists-refused.png')
})
