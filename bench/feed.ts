// The activity feed in Chromium with 10,000 and 100,000 cached events: mount time, and a slow scroll while ten new
// events a second arrive (the "N new" button clicked every two seconds, inserting them above the reader) — the share
// of frames over 20 ms (requestAnimationFrame deltas; long tasks counted too), at full speed and with the CPU
// throttled 4× (DevTools protocol), and the main thread's time per frame (Performance.getMetrics TaskDuration) as a
// ratio to a bare page drawing the same rows with the same virtualiser and options (bench/feed-reference), driven the
// same way and given each news event as it comes. Each scroll runs three times, the app's and the bare list's in turn;
// frames are counted over all three, the time per frame is the median, the ratio the median of the pairs' ratios.
//
// The app runs as built (`npm run build`) over a real core. The friends' streams come from a JSON peer on loopback
// (feed-peer.ts); the cache is filled through the core's feed poller, and news reaches the page as it does in the
// app: the poller looks, merges, and announces 'friends:updated' (the feed redraws news at most twice a second).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CDPSession, Page } from '@playwright/test'
import type { Core } from '../src-main/core'
import { startServiceProcess } from '../src-service/testing/service-process'
import { serveDirectory } from '../e2e/harness/static-server'
import { buildReferencePage, openBrowserBench } from './browser'
import type { BenchFriend } from './feed-data'
import { fillFeedCache, startFeedPeer, type FeedPeer } from './feed-peer'
import type { BenchRow } from './table'
import { median } from './stats'

const SIZES = [10_000, 100_000]
const SCROLL_MS = 8_000
/** A slow scroll: 2 px a frame, some 120 px a second at 60 frames a second. */
const SCROLL_PX_PER_FRAME = 2
const NEWS_EVERY_MS = 100
const INSERT_EVERY_MS = 2_000
const MOUNTS = 5
/** Runs of each scroll, the app's and the bare list's taken in turn, so a busy moment of the machine hits both. */
const ROUNDS = 3
/** An unmeasured scroll first, so the code runs compiled and the rows near the start are read. */
const WARM_UP_MS = 1_000
const SLOW_FRAME_MS = 20
/** Where each page's list scrolls, and its "N new" button. */
const APP = { scroller: '.activity-feed__scroller', pill: '.activity-feed__pill' }
const REFERENCE = { scroller: '.scroller', pill: '.pill' }

interface Run {
  frames: number
  slowFrames: number
  longTasks: number
  taskMsPerFrame: number
  insertions: number
}

export async function runFeedBench(): Promise<BenchRow[]> {
  const workDir = await mkdtemp(join(tmpdir(), 'blogdesk-bench-feed-'))
  // What was started, stopped in the reverse order whatever happens.
  const stops: (() => Promise<void>)[] = [() => rm(workDir, { recursive: true, force: true })]
  try {
    const service = await startServiceProcess(join(workDir, 'service'))
    stops.unshift(() => service.stop())
    const peer = await startFeedPeer()
    stops.unshift(() => peer.close())
    const reference = await serveDirectory(await buildReferencePage('feed-reference', join(workDir, 'reference')))
    stops.unshift(() => reference.close())
    const bench = await openBrowserBench()
    stops.unshift(() => bench.close())
    const { core } = bench
    const account = await core.accounts.add(service.sandbox)
    await core.accounts.attachJson(account.id, peer.credentials)
    core.accounts.announce()

    const friends = new Map<number, { friend: BenchFriend; id: string }>()
    for (const size of SIZES) {
      const friend: BenchFriend = { username: `ana${size / 1000}k`, displayName: `Ana ${size / 1000}k` }
      peer.addFriend(friend, size)
      friends.set(size, { friend, id: await fillFeedCache(core, account.id, friend) })
    }

    const rows: BenchRow[] = []
    const page = await bench.openApp()
    await allowNamedFunctions(page)
    await page.getByRole('navigation', { name: 'Accounts' }).getByRole('button', { name: 'Friends' }).first().click()
    await page.getByRole('list', { name: 'People you follow' }).waitFor()
    const referencePage = await bench.openBlank()

    // Opening each friend in turn, so each opening mounts the feed afresh; the bare list mounted on a fresh page.
    const mounts = new Map(SIZES.map((size) => [size, [] as number[]]))
    const referenceMounts: number[] = []
    for (let round = 0; round < MOUNTS; round++) {
      for (const size of SIZES) mounts.get(size)!.push(await timeMount(page, friends.get(size)!.friend.displayName))
      referenceMounts.push(await timeReferenceMount(referencePage, reference.url, peer.origin, friends.get(10_000)!.friend, 10_000))
    }
    const mount10k = median(mounts.get(10_000)!)
    rows.push(
      { name: 'feed, 10,000 events: mount (median)', value: mount10k, unit: 'ms', ratio: mount10k / median(referenceMounts), target: '≤ 150 ms' },
      { name: 'feed, 100,000 events: mount (median)', value: median(mounts.get(100_000)!), unit: 'ms' },
      { name: 'bare virtualised list, 10,000 rows: mount (median)', value: median(referenceMounts), unit: 'ms' },
    )

    const cdp = await page.context().newCDPSession(page)
    const referenceCdp = await referencePage.context().newCDPSession(referencePage)
    for (const size of SIZES) {
      const { friend, id } = friends.get(size)!
      for (const throttle of [1, 4]) {
        const apps: Run[] = []
        const bares: Run[] = []
        for (let round = 0; round < ROUNDS; round++) {
          apps.push(await scrollApp(page, cdp, core, peer, friend, id, throttle))
          bares.push(await scrollReference(referencePage, referenceCdp, reference.url, peer, friend, size, throttle))
        }
        const app = together(apps)
        const bare = together(bares)
        const ratio = median(apps.map((run, round) => run.taskMsPerFrame / bares[round]!.taskMsPerFrame))
        const label = `feed, ${size.toLocaleString('en')} events${throttle > 1 ? `, CPU ${throttle}× slower` : ''}`
        rows.push(
          {
            name: `${label}: frames over ${SLOW_FRAME_MS} ms (of ${app.frames}; ${app.longTasks} long tasks, ${app.insertions} insertions)`,
            value: (app.slowFrames / app.frames) * 100,
            unit: '%',
            target: throttle > 1 ? '≤ 2%' : '≤ 1%',
          },
          { name: `${label}: main thread per frame (median of ${ROUNDS})`, value: app.taskMsPerFrame, unit: 'ms', ratio, target: '≤ 1.5× bare list' },
          {
            name: `bare list, ${size.toLocaleString('en')} rows${throttle > 1 ? `, CPU ${throttle}×` : ''}: frames over ${SLOW_FRAME_MS} ms (of ${bare.frames}); per frame ${bare.taskMsPerFrame.toFixed(2)} ms`,
            value: (bare.slowFrames / bare.frames) * 100,
            unit: '%',
          },
        )
      }
    }
    return rows
  } finally {
    for (const stop of stops) await stop()
  }
}

/** Opens the friend's feed from the friends list and times it until its first event is drawn. */
async function timeMount(page: Page, displayName: string): Promise<number> {
  await page.bringToFront()
  // Another friend first, so the feed mounts afresh.
  const friendButtons = page.getByRole('list', { name: 'People you follow' }).getByRole('button', { name: /^Ana / })
  await friendButtons.filter({ hasNotText: displayName }).first().click()
  await page.getByRole('feed').waitFor()
  return page.evaluate(async (name) => {
    const button = [...document.querySelectorAll<HTMLElement>('[aria-label="People you follow"] button')].find((candidate) =>
      candidate.textContent?.startsWith(name),
    )!
    const drawn = () => [...document.querySelectorAll('[role="feed"] article')].some((row) => row.getAttribute('aria-busy') !== 'true')
    const heading = () => document.querySelector('main h1')?.textContent === name
    const started = performance.now()
    button.click()
    await new Promise<void>((resolve) => {
      const observer = new MutationObserver(() => {
        if (heading() && drawn()) {
          observer.disconnect()
          resolve()
        }
      })
      observer.observe(document.body, { childList: true, subtree: true, attributes: true })
    })
    // Until the frame holding it is drawn.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
    return performance.now() - started
  }, displayName)
}

async function timeReferenceMount(page: Page, url: string, origin: string, friend: BenchFriend, size: number): Promise<number> {
  await page.goto(url)
  await page.bringToFront()
  await allowNamedFunctions(page)
  return page.evaluate(
    async ({ origin, friend, size }) => {
      const started = performance.now()
      window.benchReference.mount(origin, friend, size)
      await new Promise<void>((resolve) => {
        const observer = new MutationObserver(() => {
          if (document.querySelector('[role="feed"] article')) {
            observer.disconnect()
            resolve()
          }
        })
        observer.observe(document.body, { childList: true, subtree: true })
      })
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
      return performance.now() - started
    },
    { origin, friend, size },
  )
}

async function scrollApp(page: Page, cdp: CDPSession, core: Core, peer: FeedPeer, friend: BenchFriend, friendId: string, throttle: number): Promise<Run> {
  // A page in the background gets a frame a second: each page is measured in front.
  await page.bringToFront()
  await page.getByRole('list', { name: 'People you follow' }).getByRole('button', { name: new RegExp(`^${friend.displayName}\\b`) }).click()
  await page.getByRole('heading', { level: 1, name: friend.displayName }).waitFor()
  await toTheMiddle(page, APP.scroller)
  // The poller looks at the friend's stream as often as news arrives; each look merges it and tells the page.
  let looking: Promise<unknown> | null = null
  const news = setInterval(() => {
    peer.addNews(friend.username, 1)
    looking ??= core.feed.refresh(friendId).finally(() => (looking = null))
  }, NEWS_EVERY_MS)
  try {
    return await measure(page, cdp, throttle, APP)
  } finally {
    clearInterval(news)
    await looking
  }
}

async function scrollReference(page: Page, cdp: CDPSession, url: string, peer: FeedPeer, friend: BenchFriend, size: number, throttle: number): Promise<Run> {
  await page.goto(url)
  await page.bringToFront()
  await allowNamedFunctions(page)
  await page.evaluate(({ origin, friend, size }) => window.benchReference.mount(origin, friend, size), { origin: peer.origin, friend, size })
  await page.locator('[role="feed"] article').first().waitFor()
  await toTheMiddle(page, REFERENCE.scroller)
  let delivering: Promise<unknown> | null = null
  const news = setInterval(() => {
    delivering ??= page.evaluate(() => window.benchReference.news(1)).finally(() => (delivering = null))
  }, NEWS_EVERY_MS)
  try {
    return await measure(page, cdp, throttle, REFERENCE)
  } finally {
    clearInterval(news)
    await delivering
  }
}

/** Halfway down the list, once the rows there are read and drawn. */
async function toTheMiddle(page: Page, scrollerSelector: string): Promise<void> {
  await page.evaluate((selector) => {
    const scroller = document.querySelector<HTMLElement>(selector)!
    scroller.scrollTop = scroller.scrollHeight / 2
  }, scrollerSelector)
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('[role="feed"] article')]
    return rows.length > 0 && rows.every((row) => row.getAttribute('aria-busy') !== 'true')
  })
}

async function measure(page: Page, cdp: CDPSession, throttle: number, selectors: { scroller: string; pill: string }): Promise<Run> {
  // The pointer rests on the list, as a reader's does while the wheel scrolls it.
  const box = (await page.locator(selectors.scroller).boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.75)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle })
  await cdp.send('Performance.enable')
  try {
    await page.evaluate(drive, { durationMs: WARM_UP_MS, pxPerFrame: SCROLL_PX_PER_FRAME, insertEveryMs: INSERT_EVERY_MS, ...selectors })
    const before = await taskSeconds(cdp)
    const driven = await page.evaluate(drive, { durationMs: SCROLL_MS, pxPerFrame: SCROLL_PX_PER_FRAME, insertEveryMs: INSERT_EVERY_MS, ...selectors })
    const after = await taskSeconds(cdp)
    const frames = driven.deltas.length
    return {
      frames,
      slowFrames: driven.deltas.filter((delta) => delta > SLOW_FRAME_MS).length,
      longTasks: driven.longTasks,
      taskMsPerFrame: ((after - before) * 1000) / frames,
      insertions: driven.insertions,
    }
  } finally {
    await cdp.send('Performance.disable')
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
  }
}

async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0
}

/** Runs in the page: scrolls the feed a little every frame and clicks the "N new" button now and then. */
function drive(options: { durationMs: number; pxPerFrame: number; insertEveryMs: number; scroller: string; pill: string }) {
  const { durationMs, pxPerFrame, insertEveryMs, pill } = options
  return new Promise<{ deltas: number[]; longTasks: number; insertions: number }>((resolve) => {
    const scroller = document.querySelector<HTMLElement>(options.scroller)!
    const deltas: number[] = []
    let longTasks = 0
    let insertions = 0
    const observer = new PerformanceObserver((list) => void (longTasks += list.getEntries().length))
    observer.observe({ type: 'longtask' })
    requestAnimationFrame((start) => {
      let last = start
      let nextInsert = start + insertEveryMs
      const frame = (now: number) => {
        deltas.push(now - last)
        last = now
        scroller.scrollTop += pxPerFrame
        if (now >= nextInsert) {
          nextInsert += insertEveryMs
          const button = document.querySelector<HTMLElement>(pill)
          if (button) {
            button.click()
            insertions++
          }
        }
        if (now - start < durationMs) requestAnimationFrame(frame)
        else {
          observer.disconnect()
          resolve({ deltas, longTasks, insertions })
        }
      }
      requestAnimationFrame(frame)
    })
  })
}

/** tsx keeps functions' names by wrapping them in __name(), which the functions handed to the page call too. */
async function allowNamedFunctions(page: Page): Promise<void> {
  await page.evaluate('window.__name = (f) => f')
}

/** Several runs as one: frames and long tasks added up, the time per frame their median. */
function together(runs: Run[]): Run {
  const sum = (field: 'frames' | 'slowFrames' | 'longTasks' | 'insertions') => runs.reduce((total, run) => total + run[field], 0)
  return {
    frames: sum('frames'),
    slowFrames: sum('slowFrames'),
    longTasks: sum('longTasks'),
    insertions: sum('insertions'),
    taskMsPerFrame: median(runs.map((run) => run.taskMsPerFrame)),
  }
}
