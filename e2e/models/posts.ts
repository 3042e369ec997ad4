// The weblog's published posts, its categories, the category picker and the conflict view, found by roles and
// labels the way assistive technology finds them.
import type { Locator, Page } from '@playwright/test'

export class PostsModel {
  readonly page: Page

  constructor(page: Page) {
    this.page = page
  }

  /** The weblog's places in the sidebar: Drafts, Posts, Categories. */
  weblogPlaces(weblogTitle: string): Locator {
    return this.page.getByRole('navigation', { name: 'Accounts' }).getByRole('list', { name: weblogTitle, exact: true })
  }

  async openPosts(weblogTitle: string): Promise<void> {
    await this.weblogPlaces(weblogTitle).getByRole('button', { name: 'Posts', exact: true }).click()
  }

  async openCategories(weblogTitle: string): Promise<void> {
    await this.weblogPlaces(weblogTitle).getByRole('button', { name: 'Categories', exact: true }).click()
  }

  async openDrafts(weblogTitle: string): Promise<void> {
    await this.weblogPlaces(weblogTitle).getByRole('button', { name: 'Drafts', exact: true }).click()
  }

  // ── The posts list ─────────────────────────────────────────────────────────────────────────────────────────

  get postsList(): Locator {
    return this.page.getByRole('region', { name: 'Published posts' })
  }

  /** The titles of the posts shown, in order. */
  postTitles(): Promise<string[]> {
    return this.postsList.getByRole('listitem').getByRole('heading', { level: 3 }).allTextContents()
  }

  post(title: string): Locator {
    return this.postsList.getByRole('listitem').filter({ has: this.page.getByRole('heading', { name: title, exact: true }) })
  }

  async editPost(title: string): Promise<void> {
    await this.post(title).getByRole('button', { name: `Edit “${title}”` }).click()
  }

  get deleteDialog(): Locator {
    return this.page.getByRole('alertdialog', { name: 'Delete this post from the weblog?' })
  }

  // ── Categories ─────────────────────────────────────────────────────────────────────────────────────────────

  get categoriesPane(): Locator {
    return this.page.getByRole('article', { name: 'Categories' })
  }

  /** The names the categories pane lists. */
  listedCategories(): Promise<string[]> {
    return this.categoriesPane.getByRole('region', { name: 'The weblog’s categories' }).getByRole('listitem').allTextContents()
  }

  get categoryPicker(): Locator {
    return this.page.getByRole('combobox', { name: 'Categories' })
  }

  /** The picker's open list of the weblog's categories. */
  get categoryOptions(): Locator {
    return this.page.getByRole('listbox', { name: 'Categories' }).getByRole('option')
  }

  /** The chips of the chosen categories, with their remove buttons. */
  get chosenCategories(): Locator {
    return this.page.getByRole('list', { name: 'Chosen categories' }).getByRole('listitem')
  }

  /** The names on the chips, without what is said only to screen readers. */
  chosenCategoryNames(): Promise<string[]> {
    return this.chosenCategories.locator('.category-chip__name').evaluateAll((names) =>
      names.map((name) => [...name.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join('')),
    )
  }

  // ── Conflicts ──────────────────────────────────────────────────────────────────────────────────────────────

  get conflictView(): Locator {
    return this.page.getByRole('region', { name: /was changed on the server$/ })
  }

  conflictVersion(heading: 'Yours' | 'On the server'): Locator {
    return this.conflictView.getByRole('article', { name: heading })
  }

  get mergeForm(): Locator {
    return this.page.getByRole('form', { name: 'Merge by hand' })
  }
}
