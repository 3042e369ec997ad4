// The drafts list and the post editor as a person sees them, found by roles and labels; and the weblog as the service
// has it, read over HTTP as any Atom client would, to compare the editor's "Published" with what is really there.
import { expect, type Locator, type Page } from '@playwright/test'
import { createWsseHeader, readFeed, readLinkFeed, type AtomEntry } from '../../src-protocol'
import type { Sandbox } from '../../src-service/testing/service-fixture'
import type { Core } from '../../src-main/core'
import type { PostDraft } from '../../src-shared/contract'
import { chooseFiles } from '../harness/files'
import { fetchWeblogTitles } from '../harness/weblog-listing'
import type { AppModel } from './app'

export class EditorModel {
  readonly page: Page

  constructor(page: Page) {
    this.page = page
  }

  /** Where most writing journeys start: the sandbox's account added and its first weblog's drafts open. Resolves the weblog's title. */
  async openSandboxDrafts(app: AppModel, sandbox: Sandbox): Promise<string> {
    const [weblog] = await fetchWeblogTitles(sandbox)
    if (weblog === undefined) throw new Error('The sandbox lists no weblog.')
    await app.addAccount(sandbox)
    await this.openDrafts(weblog)
    return weblog
  }

  /** The weblog's places in the sidebar (Drafts, Posts, Categories), under its title. */
  async openDrafts(weblogTitle: string): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Accounts' })
      .getByRole('list', { name: weblogTitle, exact: true })
      .getByRole('button', { name: 'Drafts', exact: true })
      .click()
  }

  // ── The drafts list ────────────────────────────────────────────────────────────────────────────────────────

  get newPostButton(): Locator {
    // The one within reach: the main pane offers its own in a narrow window, out of reach while the list's drawer is open.
    return this.page.getByRole('button', { name: 'New post', exact: true }).and(this.page.locator(':not([inert], [inert] *)'))
  }

  get draftsList(): Locator {
    return this.page.getByRole('list', { name: 'Drafts', exact: true })
  }

  /** A draft's entry in the list, by the title it shows. */
  draftItem(title: string): Locator {
    return this.draftsList.getByRole('listitem').filter({ has: this.page.getByRole('button', { name: new RegExp(`^${escapeRegExp(title)}`) }) })
  }

  async openDraft(title: string): Promise<void> {
    await this.draftItem(title).getByRole('button').first().click()
  }

  // ── The editor ─────────────────────────────────────────────────────────────────────────────────────────────

  get editor(): Locator {
    return this.page.getByRole('region', { name: /^Editing “/ })
  }

  get title(): Locator {
    return this.editor.getByRole('textbox', { name: 'Title', exact: true })
  }

  get text(): Locator {
    return this.editor.getByRole('textbox', { name: 'Post text' })
  }

  /** The images in the post's text, as drawn. */
  get images(): Locator {
    return this.text.locator('img')
  }

  /** The hidden file input behind the toolbar's Image… button. */
  get imagePicker(): Locator {
    return this.editor.getByLabel('Choose images to add')
  }

  /** The question asked as an image is added: its alt text, or decorative. */
  get altTextDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Describe this image' })
  }

  /**
   * Adds images with the toolbar's Image… button, answering the alt text question for each with `alt` (by default
   * what Blogdesk suggests from the file's name).
   */
  async addImages(paths: readonly string[], alt?: string): Promise<void> {
    await chooseFiles(this.imagePicker, paths)
    for (let count = 0; count < paths.length; count++) {
      await expect(this.altTextDialog).toBeVisible()
      if (alt !== undefined) await this.altTextDialog.getByRole('textbox', { name: 'Alt text' }).fill(alt)
      await this.altTextDialog.getByRole('button', { name: 'Add image' }).click()
    }
    await expect(this.altTextDialog).toHaveCount(0)
  }

  /** The find bar, with or without its replace field. */
  get findBar(): Locator {
    return this.editor.getByRole('search', { name: /^Find (and replace )?in the post$/ })
  }

  /** "3 of 200", "No matches", "Replaced 3". */
  get findCount(): Locator {
    return this.findBar.getByRole('status')
  }

  /** The matches highlighted in the text; the current one is also `.find-match--current`. */
  get highlightedMatches(): Locator {
    return this.text.locator('.find-match')
  }

  /**
   * Each occurrence of `word` (any case) the text shows on screen, and whether it is highlighted: what a writer sees
   * of the matches, whichever part of the post is scrolled into view.
   */
  async matchesOnScreen(word: string): Promise<{ shown: number; highlighted: number }> {
    return this.text.evaluate((text, sought) => {
      const pane = text.closest('.post-editor__page')!.getBoundingClientRect()
      const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT)
      let shown = 0
      let highlighted = 0
      const pattern = new RegExp(sought, 'gi')
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const found of (node.textContent ?? '').matchAll(pattern)) {
          const range = document.createRange()
          range.setStart(node, found.index)
          range.setEnd(node, found.index + found[0].length)
          const box = range.getBoundingClientRect()
          if (box.bottom <= pane.top || box.top >= pane.bottom) continue
          shown++
          if (node.parentElement?.closest('.find-match, .find-match--current')) highlighted++
        }
      }
      return { shown, highlighted }
    }, word)
  }

  get saveState(): Locator {
    return this.editor.locator('.save-indicator')
  }

  get publishButton(): Locator {
    return this.editor.getByRole('button', { name: /^(Publish|Update)$/ })
  }

  /** The badge beside the save state: Draft, Queued, Sending, Published, Needs attention. */
  get stateBadge(): Locator {
    return this.editor.locator('.post-editor__bar .state-badge')
  }

  /** What the editor says of where the post stands on its way to the weblog (Queued to publish, Published…). */
  get publishStatus(): Locator {
    return this.editor.locator('.publish-status')
  }

  /** Publishes with Ctrl+Enter from the post: the first time for a post it asks, and Enter answers Publish. */
  async publishByKeys(): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+Enter')
    await expect(this.page.getByRole('alertdialog', { name: /^Publish “/ })).toBeVisible()
    await this.page.keyboard.press('Enter')
  }

  get viewOnWeblog(): Locator {
    return this.editor.getByRole('button', { name: 'View on the weblog ↗' })
  }

  /** New post, and the caret in its title. */
  async startPost(): Promise<void> {
    await this.newPostButton.click()
    // Opening the new draft is a round trip to core, and the first one loads the editor's code: a machine shared with
    // other work can hold that for seconds.
    await expect(this.title).toBeFocused({ timeout: 30_000 })
  }

  /** Starts a new post and writes it; the text is typed with the keyboard, as a person types. */
  async write(title: string, paragraphs: string[]): Promise<void> {
    await this.startPost()
    await this.title.fill(title)
    await this.page.keyboard.press('Enter')
    await expect(this.text).toBeFocused()
    for (const [index, paragraph] of paragraphs.entries()) {
      if (index > 0) await this.page.keyboard.press('Enter')
      await this.page.keyboard.type(paragraph)
    }
  }
}

/** The local draft titled `title`, as core keeps it: what "Saved locally" promises. */
export async function localDraft(core: Core, title: string): Promise<PostDraft> {
  for (const account of await core.handlers['accounts:list'](null)) {
    for (const weblog of await core.handlers['weblogs:list']({ accountId: account.id, refresh: true })) {
      let page = await core.handlers['drafts:list']({ accountId: account.id, weblogPostUri: weblog.postUri, after: null })
      for (;;) {
        const draft = page.drafts.find((candidate) => candidate.title === title)
        if (draft) return core.handlers['drafts:get']({ draftId: draft.id })
        const last = page.drafts.at(-1)
        if (!page.more || !last) break
        const after = { updatedAt: last.updatedAt, id: last.id }
        page = await core.handlers['drafts:list']({ accountId: account.id, weblogPostUri: weblog.postUri, after })
      }
    }
  }
  throw new Error(`No local draft is titled “${title}”.`)
}

/** The posts of a weblog as its feed lists them, and where each one's public page is. */
export async function fetchWeblogPosts(sandbox: Sandbox, weblogTitle: string): Promise<{ title: string; permalink: string | null }[]> {
  const credentials = { username: sandbox.username, password: sandbox.apiPassword }
  const get = async (url: string) => {
    const response = await fetch(url, { headers: { 'X-WSSE': createWsseHeader(credentials), Authorization: 'WSSE profile="UsernameToken"' } })
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`)
    return response.text()
  }
  const rootUrl = `${sandbox.atomBase}/t/atom/weblog`
  const feedLink = readLinkFeed(await get(rootUrl), rootUrl).find((link) => link.rel === 'service.feed' && link.title === weblogTitle)
  if (!feedLink) throw new Error(`The service lists no feed for the weblog “${weblogTitle}”.`)
  const feed = readFeed(await get(feedLink.href), { baseUrl: feedLink.href })
  return feed.entries.map((entry: AtomEntry) => ({
    title: entry.title ?? '',
    permalink: entry.links.find((link) => link.rel === 'alternate')?.href ?? null,
  }))
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
