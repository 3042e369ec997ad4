// People's and groups' public pages, and avatars: /profiles/<username> (a User's profilePageUrl), /groups/<urlId>/
// (a Group's siteUrl unless it has a site of its own) and /avatars/<urlId>/<spec>.png (avatarLink). Every piece of
// text on the pages is the person's own, so all of it is escaped.
import { AVATAR_SIZES, type AvatarCache } from '../media/avatars'
import { weblogAddresses } from '../routes/posts-entry'
import type { Reply } from '../routes/reply'
import type { Router } from '../routes/router'
import type { Group, Person, Store } from '../store'
import { escapeHtml, htmlPage, notFoundPage } from './page'

export function profilePageUrl(origin: string, username: string): string {
  return `${origin}/profiles/${encodeURIComponent(username)}`
}

export function groupPageUrl(origin: string, group: Pick<Group, 'urlId'>): string {
  return `${origin}/groups/${group.urlId}/`
}

/** `spec` is a size and a crop, as TypePad wrote them: 50si (square), 115pi (proportional); avatars are square. */
export function avatarUrl(origin: string, urlId: string, spec: string): string {
  return `${origin}/avatars/${urlId}/${spec}.png`
}

/** The size the JSON interface's avatarLink.url shows. */
export const AVATAR_LINK_SIZE = 50

// Pages link with paths rather than the origin, so they read the same whichever address reached the service.
const HERE = ''

const AVATAR_SPEC = /^(\d{1,4})(si|pi|wi|hi)\.png$/

export function registerProfilePages(router: Router, store: Store, avatars: AvatarCache): void {
  router
    .get('/profiles/:username', async ({ params }) => {
      const person = await store.profiles.findByUsername(params['username'] ?? '')
      if (!person) return notFoundPage(`There is nobody called "${params['username'] ?? ''}" here. Check the address.`)
      return profilePage(store, person)
    })
    .get('/groups/:urlId/', async ({ params }) => {
      const group = await store.groups.findByUrlId(params['urlId'] ?? '')
      if (!group) return notFoundPage('There is no group at this address. The link may be out of date.')
      return groupPage(store, group)
    })
    .get('/avatars/:urlId/:spec', async ({ params }) => {
      const person = await store.profiles.findByUrlId(params['urlId'] ?? '')
      if (!person) return notFoundPage('There is nobody with this avatar address. The link may be out of date.')
      const size = Number(AVATAR_SPEC.exec(params['spec'] ?? '')?.[1])
      if (!(AVATAR_SIZES as readonly number[]).includes(size)) {
        return notFoundPage(
          `Avatars come in these sizes: ${AVATAR_SIZES.join(', ')}. Ask for one as <size>si.png, e.g. 50si.png.`,
        )
      }
      const png = await avatars.png({ urlId: person.urlId, displayName: person.displayName, color: person.avatarColor }, size)
      return {
        status: 200,
        // Short-lived: the picture at this address changes when the person changes their name or colour.
        headers: { 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' },
        body: png,
      }
    })
}

const PROFILE_STYLE = `<style>
header.person { display: flex; gap: 1.25rem; align-items: center; margin-bottom: 1.5rem; }
header.person img { border-radius: 8px; }
header.person h1 { margin: 0 0 0.25rem; }
ul.people { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.75rem 1.25rem; }
ul.people a { display: flex; align-items: center; gap: 0.5rem; }
ul.people img { border-radius: 4px; }
</style>`

async function profilePage(store: Store, person: Person): Promise<Reply> {
  const meta = [`@${escapeHtml(person.username)}`, ...(person.location ? [escapeHtml(person.location)] : [])].join(' · ')
  const weblogs = await store.weblogs.ownedBy(person.id)
  const groups = await store.groups.groupsOf(person.id)
  const neighbours = [...(await store.profiles.people(await store.relationships.targetsOf(person.id, 'neighbor'))).values()]
  const sections = [
    PROFILE_STYLE,
    `<header class="person">${avatarImage(person, 115)}<div><h1>${escapeHtml(person.displayName)}</h1>` +
      `<p class="meta">${meta}</p></div></header>`,
    person.aboutMe ? `<p>${escapeHtml(person.aboutMe).replace(/\r?\n/g, '<br>\n')}</p>` : '',
    person.interests.length > 0 ? `<h2>Interests</h2>\n<p>${person.interests.map(escapeHtml).join(' · ')}</p>` : '',
    linkList('Weblogs', weblogs.map((weblog) => [weblogAddresses(HERE, weblog).page, weblog.title])),
    linkList('Groups', groups.map((group) => [groupPageUrl(HERE, group), group.displayName])),
    neighbours.length > 0 ? `<h2>Neighbours</h2>\n${peopleList(neighbours)}` : '',
  ]
  return htmlPage({ title: person.displayName, body: sections.filter(Boolean).join('\n') })
}

async function groupPage(store: Store, group: Group): Promise<Reply> {
  const members = await store.groups.members(group.id)
  const people = await store.profiles.people(members.map((member) => member.userId))
  const count = `${members.length} ${members.length === 1 ? 'member' : 'members'}`
  const sections = [
    PROFILE_STYLE,
    `<h1>${escapeHtml(group.displayName)}</h1>`,
    group.tagline ? `<p>${escapeHtml(group.tagline)}</p>` : '',
    `<p class="meta">${count}</p>`,
    peopleList(members.flatMap((member) => people.get(member.userId) ?? [])),
  ]
  return htmlPage({ title: group.displayName, body: sections.filter(Boolean).join('\n') })
}

/** A headed list of links; nothing when there are none. */
function linkList(heading: string, links: [href: string, text: string][]): string {
  if (links.length === 0) return ''
  const items = links.map(([href, text]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`)
  return `<h2>${heading}</h2>\n<ul>${items.join('')}</ul>`
}

function peopleList(people: Person[]): string {
  const items = people.map(
    (person) =>
      `<li><a href="${escapeHtml(profilePageUrl(HERE, person.username))}">${avatarImage(person, 32)}` +
      `${escapeHtml(person.displayName)}</a></li>`,
  )
  return `<ul class="people">${items.join('')}</ul>`
}

function avatarImage(person: Person, size: number): string {
  return `<img src="${escapeHtml(avatarUrl(HERE, person.urlId, `${size}si`))}" width="${size}" height="${size}" alt="">`
}
