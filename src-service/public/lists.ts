// The page behind a list's `alternate` link: its items, newest first, each with its computed title, rating (as
// stars) and notes. Readable without signing in, so a person's email address is never shown; every piece of user
// text is escaped and markup notes are sanitised (sanitize.ts).
import { idOf } from '../routes/posts-entry'
import { listAddresses } from '../routes/lists-entry'
import type { Handler, Reply } from '../routes/reply'
import type { Router } from '../routes/router'
import { itemTitle, type List, type ListItem, type ListType, type Store } from '../store'
import { dateHtml, escapeHtml, htmlPage, notFoundPage } from './page'
import { contentHtml } from './sanitize'

const WHAT_IT_LISTS: Record<ListType, string> = {
  music: 'A list of music',
  books: 'A list of books',
  people: 'A list of people',
  links: 'A list of links',
}

export function registerListPages(router: Router, store: Store): void {
  router.get('/lists/:listId', listWithoutSlash(store)).get('/lists/:listId/', listPage(store))
}

function listWithoutSlash(store: Store): Handler {
  return async ({ params }) => {
    const list = await findList(store, params['listId'])
    if (!list) return noSuchList(params['listId'])
    return { status: 301, headers: { Location: listAddresses('', list).page } }
  }
}

function listPage(store: Store): Handler {
  return async ({ params }) => {
    const list = await findList(store, params['listId'])
    if (!list) return noSuchList(params['listId'])
    const items = await store.lists.itemsOf(list.id)
    const count = `${items.length} ${items.length === 1 ? 'item' : 'items'}`
    const listing =
      items.length === 0
        ? '<p>Nothing has been added to this list yet.</p>'
        : `<ol class="posts">\n${items.map((item) => itemHtml(list.type, item)).join('\n')}\n</ol>`
    const body = [
      `<h1>${escapeHtml(list.title)}</h1>`,
      `<p class="meta">${WHAT_IT_LISTS[list.type]} · ${count}</p>`,
      listing,
    ].join('\n')
    return htmlPage({ title: list.title, body })
  }
}

function itemHtml(type: ListType, item: ListItem): string {
  const { fields } = item
  const title = escapeHtml(itemTitle(type, fields))
  const linkTarget = type === 'links' ? fields.url : type === 'people' ? fields.homepage : undefined
  const heading = linkTarget === undefined ? title : externalLink(linkTarget, title)
  const thumbnail =
    fields.thumbnail === undefined ? '' : `<img src="${escapeHtml(fields.thumbnail)}" alt="" width="96" loading="lazy">\n`
  const meta = [
    item.rating === null ? null : stars(item.rating),
    ...details(type, item),
    `added ${dateHtml(item.issued)}`,
  ].filter((part): part is string => part !== null)
  const notes = item.notes === null ? '' : `\n<div class="content">\n${contentHtml(item.notes.format, item.notes.value)}\n</div>`
  return `<li id="item-${item.id}">\n${thumbnail}<strong>${heading}</strong>\n<p class="meta">${meta.join(' · ')}</p>${notes}\n</li>`
}

/** What else identifies the item, beyond its title. */
function details(type: ListType, { fields }: ListItem): string[] {
  switch (type) {
    case 'music':
      return fields.album !== undefined && fields.title !== undefined ? [`from ${escapeHtml(fields.album)}`] : []
    case 'books':
      return fields.isbn !== undefined ? [`ISBN ${escapeHtml(fields.isbn)}`] : []
    case 'people': {
      const site = fields.homepage_name !== undefined && fields.name !== undefined ? [escapeHtml(fields.homepage_name)] : []
      return fields.foaf_url !== undefined ? [...site, externalLink(fields.foaf_url, 'FOAF')] : site
    }
    case 'links':
      return fields.url !== undefined && fields.title !== undefined ? [escapeHtml(new URL(fields.url).host)] : []
  }
}

function stars(rating: number): string {
  return `<span title="${rating} out of 5">${'★'.repeat(rating)}${'☆'.repeat(5 - rating)}</span> ${rating}/5`
}

/** Items only hold http(s) addresses (checked when they are stored), so the href cannot run anything. */
function externalLink(href: string, html: string): string {
  return `<a href="${escapeHtml(href)}" rel="nofollow noopener">${html}</a>`
}

async function findList(store: Store, listId: string | undefined): Promise<List | null> {
  const id = idOf(listId)
  return id === null ? null : store.lists.find(id)
}

function noSuchList(listId: string | undefined): Reply {
  return notFoundPage(`There is no list ${listId ?? ''} here. It may have been removed; check the address.`)
}
