// The Blogdesk window as a person sees it: found by roles and labels, the way assistive technology finds it. The
// frame (sidebar, list pane, main pane, status bar), accounts and their settings, and the outbox.
import type { Locator, Page } from '@playwright/test'
import type { AppCommand } from '../../src-shared/contract'

export interface AccountDetails {
  atomBase: string
  username: string
  apiPassword: string
}

export class AppModel {
  readonly page: Page
  readonly sidebar: Locator
  readonly main: Locator
  readonly statusBar: Locator

  constructor(page: Page) {
    this.page = page
    this.sidebar = page.getByRole('navigation', { name: 'Accounts' })
    this.main = page.getByRole('main')
    this.statusBar = page.getByRole('contentinfo', { name: 'Status' })
  }

  /** A command of the application menu (Edit › Find…, Help › Keyboard Shortcuts…), as the main process sends it. */
  async menuCommand(command: AppCommand): Promise<void> {
    await this.page.evaluate(
      (sent) => (window as unknown as { __blogdeskDeliver(event: string, payload: unknown): void }).__blogdeskDeliver('app:command', sent),
      command,
    )
  }

  // ── First run and accounts ─────────────────────────────────────────────────────────────────────────────────

  get welcomeHeading(): Locator {
    return this.main.getByRole('heading', { name: 'Welcome to Blogdesk', level: 1 })
  }

  get trySandboxButton(): Locator {
    return this.main.getByRole('button', { name: 'Try the local sandbox' })
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

  async openAddAccount(): Promise<void> {
    await this.page.getByRole('button', { name: 'Add account' }).click()
  }

  /** The sidebar's account headings, one per account. */
  accountLabels(): Promise<string[]> {
    return this.sidebar.getByRole('heading', { level: 2 }).allTextContents()
  }

  weblogList(accountLabel: string): Locator {
    return this.sidebar.getByRole('list', { name: `Weblogs of ${accountLabel}` })
  }

  /** The titles of the weblogs listed under every account, in sidebar order. */
  weblogTitles(): Promise<string[]> {
    return this.sidebar.getByRole('list', { name: /^Weblogs of / }).getByRole('heading', { level: 3 }).allTextContents()
  }

  /** A place of a weblog in the sidebar: its Drafts, Posts or Categories. */
  weblogPlace(weblogTitle: string, place: 'Drafts' | 'Posts' | 'Categories'): Locator {
    return this.sidebar.getByRole('list', { name: weblogTitle, exact: true }).getByRole('button', { name: place, exact: true })
  }

  async openAccountSettings(accountLabel: string): Promise<void> {
    await this.sidebar.getByRole('button', { name: `Settings of ${accountLabel}` }).click()
  }

  /** The main pane's section of an account's settings, by its heading: "API password", "Activity feed", … */
  settingsSection(heading: 'API password' | 'Activity feed' | 'Remove this account'): Locator {
    return this.main.getByRole(heading === 'Remove this account' ? 'region' : 'form', { name: heading })
  }

  /** The dialog asking to confirm something that cannot be undone. */
  get confirmDialog(): Locator {
    return this.page.getByRole('alertdialog')
  }

  /** The banner across the window while an account's publishing is paused. */
  get pausedBanner(): Locator {
    return this.page.getByRole('region', { name: 'Paused publishing' })
  }

  /** The text of the error notice in the main pane (or '' when there is none). */
  async errorMessage(): Promise<string> {
    const alert = this.main.getByRole('alert')
    return (await alert.count()) === 0 ? '' : alert.innerText()
  }

  get errorNotice(): Locator {
    return this.main.getByRole('alert')
  }

  /** The main pane's heading: the weblog's title while nothing of it is open. */
  get selectedWeblogTitle(): Locator {
    return this.main.getByRole('heading', { level: 1 })
  }

  // ── The status bar and the outbox ─────────────────────────────────────────────────────────────────────────

  /** "Online", "Can't reach <host> — …", "Offline (this computer)" or "Signed out of …", as the status bar says it. */
  get connection(): Locator {
    return this.statusBar.getByRole('status').first()
  }

  /** The status bar's outbox button; its name says what waits: "Outbox: 3 waiting to publish · 1 needs attention". */
  get outboxButton(): Locator {
    return this.statusBar.getByRole('button', { name: /^Outbox:/ })
  }

  async openOutbox(): Promise<void> {
    await this.outboxButton.click()
  }

  get outboxEntries(): Locator {
    return this.main.getByRole('list', { name: 'Operations' }).getByRole('listitem')
  }

  /** The outbox's entry for an operation, by its title. */
  outboxEntry(title: string): Locator {
    return this.outboxEntries.filter({ has: this.page.getByRole('heading', { name: title, exact: true }) })
  }
}
