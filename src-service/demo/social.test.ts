// The living sandbox as the app sees it through the JSON interface: the demo user's friends, their weblogs, the
// group, and weeks of history with every verb — the same story in every new sandbox, told once per data dir.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService } from '../server'
import { readFeed, readLinkFeed } from '../../src-protocol'
import { readSandboxFile, signedRequest, type Sandbox } from '../testing/service-fixture'
import { testDatabaseOption } from '../testing/postgres'

interface Event {
  urlId: string
  verb: string
  published: string
  actor: { preferredUsername: string }
  object: Record<string, unknown> & { objectType: string; author?: { preferredUsername: string } }
}

interface Story {
  /** Every event of every member of the demo group, by username. */
  streams: Map<string, Event[]>
  friends: { username: string; displayName: string; aboutMe: string | null; avatar: string }[]
  groupMembers: number
  firstWeblogPosts: number
  avatarSizes: [number | undefined, number | undefined][]
}

async function readStory(dataDir: string): Promise<Story> {
  const running = await startService({ port: 0, dataDir, ...(await testDatabaseOption(dataDir)), demo: true, lookup: { offline: true } })
  try {
    const sandbox = readSandboxFile(dataDir)
    const json = async (path: string) => (await (await fetch(`${running.origin}${path}`)).json()) as Record<string, unknown>
    const profilePage = await (await fetch(`${running.origin}/profiles/${sandbox.username}`)).text()
    const [groupPath] = /\/groups\/[^"/]+\//.exec(profilePage) ?? []
    const groupPage = await (await fetch(`${running.origin}${groupPath}`)).text()
    const streams = new Map<string, Event[]>()
    for (const username of ['melody', ...[...groupPage.matchAll(/href="\/profiles\/([^"]+)"/g)].map((match) => match[1]!)]) {
      if (streams.has(username)) continue
      const stream = (await json(`/users/${username}/events.json?max-results=200`)) as { entries: Event[]; totalResults: number }
      expect(stream.entries).toHaveLength(stream.totalResults)
      streams.set(username, stream.entries)
    }
    const friends = await Promise.all(
      [...streams.keys()]
        .filter((username) => username !== 'melody')
        .map(async (username) => {
          const user = (await json(`/users/${username}.json`)) as { displayName: string; aboutMe: string | null; avatarLink: { url: string } }
          return { username, displayName: user.displayName, aboutMe: user.aboutMe, avatar: user.avatarLink.url }
        }),
    )
    const avatarSizes = await Promise.all(
      friends.map(async ({ avatar }) => {
        const metadata = await sharp(Buffer.from(await (await fetch(avatar)).arrayBuffer())).metadata()
        return [metadata.width, metadata.height] as [number | undefined, number | undefined]
      }),
    )
    const groupMembers = Number(/(\d+) members/.exec(groupPage)?.[1])
    return { streams, friends, groupMembers, firstWeblogPosts: await countFirstWeblogPosts(sandbox), avatarSizes }
  } finally {
    await running.close()
  }
}

/** The demo user's first weblog's posts, read through its Atom feed as a client would. */
async function countFirstWeblogPosts(sandbox: Sandbox): Promise<number> {
  const credentials = { username: sandbox.username, password: sandbox.apiPassword }
  const root = await signedRequest(`${sandbox.atomBase}/t/atom/weblog`, credentials)
  let next = readLinkFeed(await root.text(), sandbox.atomBase).find((link) => link.rel === 'service.feed')?.href
  let posts = 0
  while (next) {
    const feed = readFeed(await (await signedRequest(next, credentials)).text())
    posts += feed.entries.length
    next = feed.links.find((link) => link.rel === 'next')?.href
  }
  return posts
}

/** The story without what differs between sandboxes: url ids and the moment of seeding. */
function plot(story: Story): string[] {
  return [...story.streams].flatMap(([username, events]) =>
    events.map((event) => `${username} ${event.verb} ${event.object.objectType} ${String(event.object['title'] ?? event.object['content'] ?? event.object['preferredUsername'])}`),
  )
}

describe('the living sandbox', () => {
  const dataDirs: string[] = []
  let story: Story
  beforeAll(async () => {
    dataDirs.push(mkdtempSync(join(tmpdir(), 'blogdesk-demo-social-')))
    story = await readStory(dataDirs[0]!)
  })
  afterAll(() => {
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  })

  it('gives the demo user at least four friends with names, profiles, avatars and weblogs of their own', () => {
    expect(story.friends.length).toBeGreaterThanOrEqual(4)
    expect(new Set(story.friends.map((friend) => friend.displayName)).size).toBe(story.friends.length)
    expect(new Set(story.friends.map((friend) => friend.avatar)).size).toBe(story.friends.length)
    for (const friend of story.friends) {
      expect(friend.aboutMe).toEqual(expect.any(String))
      const posts = story.streams.get(friend.username)!.filter((event) => event.verb === 'NewAsset' && event.object.objectType === 'Post')
      expect(posts.length).toBeGreaterThanOrEqual(2)
      expect(posts.every((event) => event.object.author?.preferredUsername === friend.username)).toBe(true)
    }
    expect(story.avatarSizes.every(([width, height]) => width === 50 && height === 50)).toBe(true)
    expect(story.groupMembers).toBe(story.friends.length + 1)
    expect(story.firstWeblogPosts).toBeGreaterThanOrEqual(45)
  })

  it('has weeks of history with all three verbs, comments both ways, and replies', () => {
    const events = [...story.streams.values()].flat()
    expect(new Set(events.map((event) => event.verb))).toEqual(new Set(['NewAsset', 'AddedFavorite', 'AddedNeighbor']))
    const comments = events.filter((event) => event.object.objectType === 'Comment')
    const onPostsOf = (event: Event) => (event.object['root'] as { author: { preferredUsername: string } }).author.preferredUsername
    expect(comments.some((event) => event.actor.preferredUsername !== 'melody' && onPostsOf(event) === 'melody')).toBe(true)
    expect(comments.some((event) => event.actor.preferredUsername === 'melody' && onPostsOf(event) !== 'melody')).toBe(true)
    expect(comments.some((event) => (event.object['inReplyTo'] as { objectType: string }).objectType === 'Comment')).toBe(true)
    const social = events.filter((event) => event.verb !== 'NewAsset' || event.object.objectType === 'Comment')
    const times = social.map((event) => Date.parse(event.published))
    expect(Math.max(...times)).toBeLessThanOrEqual(Date.now())
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(21 * 86_400_000)
  })

  it('tells the same story in every new sandbox, and only once in each', async () => {
    dataDirs.push(mkdtempSync(join(tmpdir(), 'blogdesk-demo-social-')))
    const another = await readStory(dataDirs[1]!)
    expect(plot(another)).toEqual(plot(story))
    const again = await readStory(dataDirs[0]!)
    expect(plot(again)).toEqual(plot(story))
  })
})
