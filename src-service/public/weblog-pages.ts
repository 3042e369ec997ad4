// The pages behind a weblog's and a post's `alternate` links, for the person who clicks a permalink: readable
// without signing in, every piece of user text escaped, post bodies sanitised (sanitize.ts).
import { w3cNow, type ServiceClock } from '../clock'
import { idOf, postAddresses, weblogAddresses } from '../routes/posts-entry'
import type { Handler, Reply } from '../routes/reply'
import type { Router } from '../routes/router'
import type { Post, Store, Weblog } from '../store'
import { dateHtml, escapeHtml, htmlPage, notFoundPage } from './page'
import { contentHtml } from './sanitize'

/** The weblog page lists this many of the latest posts, like a feed page. */
const POSTS_ON_WEBLOG_PAGE = 20

export function registerWeblogPages(router: Router, store: Store, clock: ServiceClock): void {
  router
    .get('/blogs/:slug', weblogWithoutSlash(store))
    .get('/blogs/:slug/', weblogPage(store, clock))
    .get('/blogs/:slug/:postId', postPage(store, clock))
}

function weblogWithoutSlash(store: Store): Handler {
  return async ({ params }) => {
    const weblog = await store.weblogs.findBySlug(params['slug'] ?? '')
    if (!weblog) return noSuchWeblog(params['slug'])
    return { status: 301, headers: { Location: weblogPath(weblog) } }
  }
}

/** Lists the posts dated up to now: a scheduled post appears when its date comes. */
function weblogPage(store: Store, clock: ServiceClock): Handler {
  return async ({ params }) => {
    const weblog = await store.weblogs.findBySlug(params['slug'] ?? '')
    if (!weblog) return noSuchWeblog(params['slug'])
    const posts = await store.posts.publicPage(weblog.id, w3cNow(clock), POSTS_ON_WEBLOG_PAGE)
    const list =
      posts.length === 0
        ? '<p>Nothing has been posted here yet.</p>'
        : `<ol class="posts">\n${posts.map((post) => postListItem(weblog, post)).join('\n')}\n</ol>`
    return htmlPage({ title: weblog.title, body: `<h1>${escapeHtml(weblog.title)}</h1>\n${list}` })
  }
}

function postListItem(weblog: Weblog, post: Post): string {
  const summary = post.summary ? `\n<p>${escapeHtml(post.summary)}</p>` : ''
  const link = `<a href="${escapeHtml(postPath(weblog, post))}">${escapeHtml(post.title)}</a>`
  return `<li>${link}\n${postMeta(post)}${summary}</li>`
}

function postPage(store: Store, clock: ServiceClock): Handler {
  return async ({ params }) => {
    const weblog = await store.weblogs.findBySlug(params['slug'] ?? '')
    if (!weblog) return noSuchWeblog(params['slug'])
    const id = idOf(params['postId'])
    const post = id === null ? null : await store.posts.find(id)
    // A post scheduled for later is not there yet, to the public, exactly as one that never was.
    if (!post || post.weblogId !== weblog.id || post.issued > w3cNow(clock)) {
      return notFoundPage(`${weblog.title} has no post ${params['postId'] ?? ''}. It may have been deleted.`)
    }
    const body = [
      `<nav><a href="${escapeHtml(weblogPath(weblog))}">${escapeHtml(weblog.title)}</a></nav>`,
      '<article>',
      `<h1>${escapeHtml(post.title)}</h1>`,
      postMeta(post),
      `<div class="content">\n${postBody(post)}\n</div>`,
      '</article>',
    ].join('\n')
    return htmlPage({ title: `${post.title} · ${weblog.title}`, body })
  }
}

function postMeta(post: Post): string {
  const categories = post.categories.length > 0 ? ` · ${post.categories.map(escapeHtml).join(', ')}` : ''
  return `<p class="meta">${dateHtml(post.issued)}${categories}</p>`
}

/** A post's body as safe HTML (see contentHtml). */
function postBody(post: Post): string {
  return contentHtml(post.contentKind, post.content)
}

function noSuchWeblog(slug: string | undefined): Reply {
  return notFoundPage(`There is no weblog called "${slug ?? ''}" here. Check the address.`)
}

// Pages link to each other by path (an empty origin), so they work whichever address the service is reached at.
function weblogPath(weblog: Weblog): string {
  return weblogAddresses('', weblog).page
}

function postPath(weblog: Weblog, post: Post): string {
  return postAddresses('', weblog, post.id).alternate
}
