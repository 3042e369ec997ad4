// The startup benchmark's floor: a React page that asks, through the same bridge as the app (window.blog, from the
// built preload), for the least the app's first screen shows (the accounts, and the first page of the weblog's
// published posts, at once) and draws the account's name and the posts' titles as plain text: no sidebar, no
// status bar, no styles. The weblog to read comes in the address's fragment.
import { createElement as h, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import type { AccountSummary, BlogApi, Envelope, RemotePostSummary, WeblogAddress } from '../../src-shared/contract'

const blog = (window as unknown as { blog: BlogApi }).blog
const address = JSON.parse(decodeURIComponent(location.hash.slice(1))) as WeblogAddress

async function valueOf<T>(call: Promise<Envelope<T>>): Promise<T> {
  const envelope = await call
  if (!envelope.ok) throw new Error(envelope.error.message)
  return envelope.value
}

const accounts = valueOf(blog.accounts.list())
const posts = valueOf(blog.posts.page({ ...address, pageUri: null })).then((page) => page.posts)

function FirstScreen() {
  const [shownAccounts, setAccounts] = useState<AccountSummary[]>([])
  const [shownPosts, setPosts] = useState<RemotePostSummary[]>([])
  useEffect(() => {
    void accounts.then(setAccounts)
    void posts.then(setPosts)
  }, [])
  return h(
    'main',
    null,
    h('nav', { 'aria-label': 'Accounts' }, ...shownAccounts.map((account) => h('h2', { key: account.id }, account.label))),
    h(
      'ul',
      { 'aria-label': 'Posts of the weblog' },
      ...shownPosts.map((post) => h('li', { key: post.editUri }, h('strong', null, post.title), ' ', post.excerpt)),
    ),
  )
}

createRoot(document.getElementById('root')!).render(h(FirstScreen))
