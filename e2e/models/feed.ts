// Friends and their activity feed as a person sees them: the sidebar's Friends place, the list pane's follow form,
// followed friends and neighbours, and the main pane's feed of articles, found by roles and labels.
import type { Locator, Page } from '@playwright/test'

export class FeedModel {
  readonly page: Page
  readonly main: Locator
  readonly listPane: Locator

  constructor(page: Page) {
    this.page = page
    this.main = page.getByRole('main')
    this.listPane = page.getByRole('region', { name: 'Friends', exact: true }).first()
  }

  /** Opens the Friends place of the account in the sidebar. */
  async openFriends(accountLabel: string): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Accounts' }).getByRole('list', { name: `Friends of ${accountLabel}` }).getByRole('button', { name: 'Friends' }).click()
    await this.followForm.waitFor()
  }

  get followForm(): Locator {
    return this.listPane.getByRole('form', { name: 'Follow someone' })
  }

  async follow(username: string): Promise<void> {
    await this.followForm.getByLabel('Username').fill(username)
    await this.followForm.getByRole('button', { name: 'Follow' }).click()
  }

  get followed(): Locator {
    return this.listPane.getByRole('list', { name: 'People you follow' })
  }

  /** A followed friend's button in the list pane, by display name. */
  friend(displayName: string): Locator {
    return this.followed.getByRole('button', { name: new RegExp(`^${displayName}\\b`) })
  }

  get neighbours(): Locator {
    return this.listPane.getByRole('list', { name: 'Neighbours you could follow' })
  }

  async followNeighbour(displayName: string): Promise<void> {
    await this.neighbours.getByRole('button', { name: `Follow ${displayName}` }).click()
  }

  /** The open friend's feed of events. */
  get feed(): Locator {
    return this.main.getByRole('feed')
  }

  /** What scrolls the feed: the region of the friend's activity, which takes the keyboard focus. */
  get scroller(): Locator {
    return this.main.getByRole('region', { name: /’s activity$/ })
  }

  get events(): Locator {
    return this.feed.getByRole('article')
  }

  /** The heading naming whose feed is open. */
  get feedTitle(): Locator {
    return this.main.getByRole('heading', { level: 1 })
  }

  /** The "N new" button that puts arrived events on top of the feed. */
  get newEventsButton(): Locator {
    return this.main.getByRole('button', { name: /^↑?\s*\d+ new$/ })
  }

  get offlineNotice(): Locator {
    return this.main.getByRole('alert').filter({ hasText: 'Offline' })
  }

  /** Each drawn event's accessible name (its sentence and how long ago), top to bottom. */
  eventNames(): Promise<string[]> {
    return this.events.evaluateAll((articles) =>
      articles
        .filter((article) => article.getAttribute('aria-busy') !== 'true')
        .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
        .map((article) =>
          (article.getAttribute('aria-labelledby') ?? '')
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' '),
        ),
    )
  }

  /** When each drawn event happened (ms since the epoch), top to bottom. */
  eventTimes(): Promise<number[]> {
    return this.events.evaluateAll((articles) =>
      articles
        .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
        .flatMap((article) => {
          const time = article.querySelector('time')?.getAttribute('datetime')
          return time ? [Date.parse(time)] : []
        }),
    )
  }

  /** The first event whose top is in view, and where it is on the screen: what the reader is looking at. */
  async inView(): Promise<{ name: string; top: number; scrollTop: number }> {
    return this.scroller.evaluate((scroller) => {
      const scrollerTop = scroller.getBoundingClientRect().top
      const visible = [...scroller.querySelectorAll('article')]
        .map((article) => ({ article, top: article.getBoundingClientRect().top }))
        .filter(({ top }) => top >= scrollerTop)
        .sort((a, b) => a.top - b.top)[0]
      const name = (visible?.article.getAttribute('aria-labelledby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
      return { name, top: visible?.top ?? 0, scrollTop: scroller.scrollTop }
    })
  }

  scrollTop(): Promise<number> {
    return this.scroller.evaluate((scroller) => scroller.scrollTop)
  }

  /** Scrolls the feed to `top` pixels, as a reader's wheel would. */
  async scrollTo(top: number): Promise<void> {
    await this.scroller.evaluate((scroller, to) => scroller.scrollTo({ top: to }), top)
  }
}
