// The Blogdesk window as a person sees it: found by roles and labels, the way assistive technology finds it.
import type { Locator, Page } from '@playwright/test'

export interface AccountDetails {
  atomBase: string
  username: string
  apiPassword: string
}

export class AppModel {
  readonly page: Page
  readonly sidebar: Locator
  readonly main: Locator

  constructor(page: Page) {
    this.page = page
    this.sidebar = page.getByRole('navigation', { name: 'Accounts' })
    this.main = page.getByRole('main')
  }

  /** The add-account form, on the first-run screen or opened from the sidebar. */
  get addAccountForm(): Locator {
    return this.main.getByRole('form', { name: /account/i })
  }

  /** Fills in and submits the add-account form; does not wait for the server's answer. */
  async addAccount(details: AccountDetails): Promise<void> {
    const form = this.addAccountForm
    await form.getByLabel('Atom base URL').fill(details.atomBase)
    await form.getByLabel('Username').fill(details.username)
    await form.getByLabel('API password').fill(details.apiPassword)
    await form.getByRole('button', { name: 'Add account' }).click()
  }

  /** The sidebar's headings, one per account. */
  accountLabels(): Promise<string[]> {
    return this.sidebar.getByRole('heading').allTextContents()
  }

  weblogList(accountLabel: string): Locator {
    return this.sidebar.getByRole('list', { name: `Weblogs of ${accountLabel}` })
  }

  /** The titles of the weblogs listed under every account, in sidebar order. */
  weblogTitles(): Promise<string[]> {
    return this.sidebar
      .getByRole('list', { name: /^Weblogs of / })
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? ''))
  }

  /** The text of the error notice in the main pane (or '' when there is none). */
  async errorMessage(): Promise<string> {
    const alert = this.main.getByRole('alert')
    return (await alert.count()) === 0 ? '' : alert.innerText()
  }

  get errorNotice(): Locator {
    return this.main.getByRole('alert')
  }

  /** The heading of the main pane's weblog, once one is selected. */
  get selectedWeblogTitle(): Locator {
    return this.main.getByRole('heading', { level: 1 })
  }
}
