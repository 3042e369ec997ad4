// The weblog's categories: listed as the service has them, read again on Refresh (and when the picker opens), chosen
// with the keyboard alone, kept for offline use, and a chosen one that the server dropped is pointed out.
import { join } from 'node:path'
import sqlite from 'node-sqlite3-wasm'
import type { Core } from '../src-main/core'
import { DATABASE_FILE, openStore, type Store } from '../src-service/store'
import { startServiceProcess, type ServiceProcess } from '../src-service/testing/service-process'
import { expect, test } from './fixtures'
import { expectAccessible } from './harness/accessibility'
import { saveScreenshot } from './harness/screenshots'
import { localDraft } from './models/editor'
import { PostsModel } from './models/posts'

const WEBLOG = 'Valse de Melody'
const WEBLOG_SLUG = 'valse-de-melody'
const DEMO_CATEGORIES = ['Kitchen', 'Music', 'Notes', 'Photography', 'Travel']

/**
 * The service has no interface for making or removing categories (they are the weblog's own business), so a test
 * changes them where the service keeps them: it stops the service, changes its store, and starts it again at the
 * same address, as src-service's own tests do with withStore.
 */
class ServiceBehindTheApp {
  #running: ServiceProcess

  constructor(service: ServiceProcess) {
    this.#running = service
  }

  /** Adds a category to the demo weblog through the service's store. */
  addCategory(name: string): Promise<void> {
    return this.#whileStopped(async () => {
      const store: Store = await openStore(this.#running.dataDir)
      try {
        await store.categories.add((await store.weblogs.findBySlug(WEBLOG_SLUG))!.id, name)
      } finally {
        await store.close()
      }
    })
  }

  /** Removes a category of the demo weblog, and the filing of its posts under it. The store offers no way to, so SQL. */
  removeCategory(name: string): Promise<void> {
    return this.#whileStopped(async () => {
      // Opening the store as the service does takes over the data dir, clearing the lock the stopped service left.
      await (await openStore(this.#running.dataDir)).close()
      const database = new sqlite.Database(join(this.#running.dataDir, DATABASE_FILE))
      try {
        // The service keeps its database in WAL mode with an exclusive lock; that mode is the only way in.
        database.exec('PRAGMA locking_mode = EXCLUSIVE')
        const category = 'SELECT c.id FROM categories c JOIN weblogs w ON w.id = c.weblog_id WHERE w.slug = :slug AND c.name = :name'
        const params = { ':slug': WEBLOG_SLUG, ':name': name }
        database.run(`DELETE FROM post_categories WHERE category_id IN (${category})`, params)
        database.run(`DELETE FROM categories WHERE id IN (${category})`, params)
      } finally {
        database.close()
      }
    })
  }

  /** Stops the service started last (the fixture stops the first one again, harmlessly). */
  stop(): Promise<void> {
    return this.#running.stop()
  }

  async #whileStopped(work: () => Promise<void>): Promise<void> {
    await this.#running.stop()
    await work()
    this.#running = await startServiceProcess(this.#running.dataDir, this.#running.port)
  }
}

async function addSandboxAccount(core: Core, service: ServiceProcess): Promise<void> {
  const { atomBase, username, apiPassword } = service.sandbox
  await core.handlers['accounts:add']({ atomBase, username, apiPassword })
}

test('the categories pane lists the service’s categories, and one added on the server after Refresh', async ({ app, core, service }, testInfo) => {
  const server = new ServiceBehindTheApp(service)
  try {
    await addSandboxAccount(core, service)
    const posts = new PostsModel(app.page)
    await posts.openCategories(WEBLOG)
    await expect.poll(() => posts.listedCategories()).toEqual(DEMO_CATEGORIES)
    await expect(posts.categoriesPane.getByRole('status')).toContainText('Read from the server today at')
    await saveScreenshot(app.page, testInfo, 'categories-pane.png')
    await expectAccessible(app.page, testInfo, 'categories pane')

    await server.addCategory('Gardening')
    expect(await posts.listedCategories(), 'nothing changes until the server is asked again').toEqual(DEMO_CATEGORIES)
    await posts.categoriesPane.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => posts.listedCategories()).toEqual(['Gardening', ...DEMO_CATEGORIES])
    await saveScreenshot(app.page, testInfo, 'categories-pane-refreshed.png')
  } finally {
    await server.stop()
  }
})

test('the category picker offers the service’s categories, works by keyboard alone and offline, and flags one removed on the server', async ({
  app,
  core,
  platform,
  service,
}, testInfo) => {
  const server = new ServiceBehindTheApp(service)
  try {
    await addSandboxAccount(core, service)
    const posts = new PostsModel(app.page)
    const page = app.page
    await posts.openDrafts(WEBLOG)
    await page.getByRole('button', { name: 'New post' }).click()
    const title = page.getByRole('textbox', { name: 'Title', exact: true })
    await title.fill('Tram 28')

    // Keyboard only from here: Tab from the title reaches the picker.
    await title.press('Tab')
    await expect(posts.categoryPicker).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(posts.categoryOptions).toHaveText(DEMO_CATEGORIES)
    await expect(posts.categoryPicker).toHaveAttribute('aria-expanded', 'true')
    await page.keyboard.type('tr')
    await expect(posts.categoryOptions).toHaveText(['Travel'])
    await page.keyboard.press('Enter')
    await expect.poll(() => posts.chosenCategoryNames()).toEqual(['Travel'])
    // The list stays open after a choice, showing everything again with its first option active: one step down is Music.
    await expect(posts.categoryOptions).toHaveText(DEMO_CATEGORIES)
    await expect(posts.categoryOptions.filter({ hasText: 'Travel' })).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await expect.poll(() => posts.chosenCategoryNames()).toEqual(['Travel', 'Music'])
    await saveScreenshot(page, testInfo, 'category-picker-open.png')
    await page.emulateMedia({ colorScheme: 'dark' })
    await saveScreenshot(page, testInfo, 'category-picker-open-dark.png')
    await expectAccessible(page, testInfo, 'category picker')
    await page.keyboard.press('Escape')
    await expect(posts.categoryPicker).toHaveAttribute('aria-expanded', 'false')
    await expect(posts.categoryPicker).toBeFocused()
    await page.keyboard.press('Backspace')
    await expect.poll(() => posts.chosenCategoryNames()).toEqual(['Travel'])

    await expect.poll(() => savedCategories(core, 'Tram 28'), 'the choice is saved with the draft').toEqual(['Travel'])

    // Offline: the list is the one last read, and the picker says so.
    platform.setOnline(false)
    await page.keyboard.press('ArrowDown')
    await expect(posts.categoryOptions).toHaveText(DEMO_CATEGORIES)
    await expect(page.getByText('This computer is offline: these are the weblog’s categories as last read from the server.')).toBeVisible()
    await page.keyboard.press('Escape')
    platform.setOnline(true)

    await server.removeCategory('Travel')
    await page.keyboard.press('ArrowDown')
    await expect(posts.categoryOptions).toHaveText(DEMO_CATEGORIES.filter((name) => name !== 'Travel'))
    await page.keyboard.press('Escape')
    await expect(page.getByText('“Travel” is no longer on the server.')).toBeVisible()
    await expect(posts.chosenCategories.filter({ hasText: 'Travel' })).toContainText('(no longer on the server)')
    await saveScreenshot(page, testInfo, 'category-picker-removed.png')
    await expectAccessible(page, testInfo, 'category picker with a removed category')
  } finally {
    await server.stop()
  }
})

/** The categories the draft titled `title` has in the local store; null until a draft has that title. */
function savedCategories(core: Core, title: string): Promise<string[] | null> {
  return localDraft(core, title).then(
    (draft) => draft.categories,
    () => null,
  )
}
