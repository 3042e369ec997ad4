// Photo albums and typed lists as a person sees them: the sidebar's sections, an album's drop zone and uploads, a
// list's add form and items, found by roles and labels the way assistive technology finds them.
import { expect, type Locator, type Page } from '@playwright/test'

export class CollectionsModel {
  readonly page: Page
  readonly main: Locator

  constructor(page: Page) {
    this.page = page
    this.main = page.getByRole('main')
  }

  /** The sidebar's list under the "Photo albums" or "Lists" heading. */
  sidebarSection(heading: 'Photo albums' | 'Lists'): Locator {
    return this.page.getByRole('navigation', { name: 'Accounts' }).getByRole('list', { name: heading, exact: true })
  }

  async openAlbum(title: string): Promise<void> {
    await this.sidebarSection('Photo albums').getByRole('button', { name: title }).click()
    await this.main.getByRole('heading', { level: 1, name: title }).waitFor()
  }

  async openList(title: string): Promise<void> {
    await this.sidebarSection('Lists').getByRole('button', { name: title }).click()
    await this.main.getByRole('heading', { level: 1, name: title }).waitFor()
  }

  // ── An album ───────────────────────────────────────────────────────────────────────────────────────────────

  get dropZone(): Locator {
    return this.main.getByRole('region', { name: 'Add photos' })
  }

  get fileInput(): Locator {
    return this.dropZone.getByLabel('Choose photos', { exact: true })
  }

  /** A dropped or picked file's row, by its file name. */
  upload(fileName: string): Locator {
    return this.main.getByRole('listitem', { name: fileName, exact: true })
  }

  /** What the row says of the photo under "Taken", "Camera" or "Location". */
  fact(fileName: string, term: 'Taken' | 'Camera' | 'Location'): Locator {
    return definition(this.upload(fileName), term)
  }

  removeLocation(fileName: string): Locator {
    return this.upload(fileName).getByRole('checkbox', { name: 'Remove location (GPS) before upload' })
  }

  get uploadButton(): Locator {
    return this.main.getByRole('button', { name: /^Upload( \d+ photos?)?$/ })
  }

  get totalProgress(): Locator {
    return this.main.getByRole('progressbar', { name: 'All uploads' })
  }

  get uploadSummary(): Locator {
    return this.main.getByRole('region', { name: 'To upload' }).locator('.uploads__summary')
  }

  /** The album's photos grid, under "Photos" (read from the server's feed) or "Sent from Blogdesk". */
  get photoGrid(): Locator {
    return this.main.getByRole('list', { name: 'The album’s photos' })
  }

  /** The photos the album shows, newest first, by title. */
  /** Waits until the album's thumbnails have loaded (lazily, once drawn): a test that then stops the service must not
   * leave one on its way, whose failure would be reported as the page's error. */
  async thumbnailsLoaded(): Promise<void> {
    await expect(this.photoGrid.locator('img').first()).toBeVisible()
    await expect
      .poll(() => this.photoGrid.locator('img').evaluateAll((images) => images.every((image) => (image as HTMLImageElement).complete)))
      .toBe(true)
  }

  photoTitles(): Promise<string[]> {
    return this.photoGrid.locator('.photo-tile__title').allTextContents()
  }

  /** The album's or list's contents, by its heading: "Photos", "Items" or "Sent from Blogdesk". */
  contents(heading: 'Photos' | 'Items' | 'Sent from Blogdesk'): Locator {
    return this.main.getByRole('region', { name: heading, exact: true })
  }

  // ── A list ─────────────────────────────────────────────────────────────────────────────────────────────────

  /** Answers "What does this list hold?" when the list has not said yet. */
  async chooseListType(typeName: 'Music' | 'Books' | 'People' | 'Links'): Promise<void> {
    const chooser = this.main.getByRole('form', { name: 'What the list holds' })
    await chooser.getByRole('radio', { name: typeName }).check()
    await chooser.getByRole('button', { name: 'Continue' }).click()
  }

  addForm(listTitle: string): Locator {
    return this.main.getByRole('form', { name: `Add to ${listTitle}` })
  }

  /** Picks `stars` in the form's rating radio group with the keyboard, as a person without a mouse would. */
  async rate(listTitle: string, stars: number): Promise<void> {
    const group = this.addForm(listTitle).getByRole('group', { name: 'Rating' })
    await group.getByRole('radio', { name: '1 star', exact: true }).focus()
    await this.page.keyboard.press('Space')
    for (let step = 1; step < stars; step++) await this.page.keyboard.press('ArrowRight')
  }

  /** An item the list shows, by the title the server gave it. */
  item(title: string): Locator {
    return this.main.locator('.list-items').getByRole('listitem', { name: title, exact: true })
  }

  /** What an item says under a detail's label ("Author", "Title", …). */
  itemField(title: string, label: string): Locator {
    return definition(this.item(title), label)
  }
}

/** The <dd> beside the <dt> that reads `term`, each pair in its own <div> of a <dl>. */
function definition(within: Locator, term: string): Locator {
  const exactly = new RegExp(`^${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
  return within.locator('dl > div').filter({ has: within.page().locator('dt', { hasText: exactly }) }).locator('dd')
}
