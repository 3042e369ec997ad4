// The preview of a 10,000-word post in the weblog's look, against setting the same HTML into a blank frame, in the
// same run: from the Preview toggle's click to the first frame drawn after the preview's frame has loaded with the
// weblog's stylesheet adopted (the look read from the service once before, as the editor finds it cached), and from
// setting the post's HTML as a blank frame's srcdoc to the first frame drawn after it loaded. Target ≤ 2×.
// Both run in the built app's page (the reference in a frame of its own beside the editor), alternating.
import type { Page } from '@playwright/test'
import { EditorModel } from '../e2e/models/editor'
import { postHtml } from './editor'
import { openSandboxAppBench } from './sandbox-app'
import type { BenchRow } from './table'
import { median } from './stats'

const WORDS = 10_000
const ROUNDS = 7
const TITLE = 'A long walk'

export async function runPreviewBench(): Promise<BenchRow[]> {
  const sandbox = await openSandboxAppBench('preview')
  try {
    const { bench, weblog, address } = sandbox
    const look = await bench.core.handlers['preview:look']({ ...address, refresh: true })
    if (!look.style) throw new Error(`The service's look could not be read: ${look.note}`)
    const html = postHtml(WORDS)
    await sandbox.seedDraft(TITLE, html)

    const page = await bench.openApp()
    const editor = new EditorModel(page)
    await editor.openDrafts(weblog.title)
    await editor.openDraft(TITLE)
    await editor.text.locator('p').first().waitFor()

    const previews: number[] = []
    const blanks: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      previews.push(await timePreview(page))
      blanks.push(await timeBlankFrame(page, html))
    }
    return [
      {
        name: `preview: a ${WORDS.toLocaleString('en')}-word post in the weblog’s look, toggle → drawn (median of ${ROUNDS})`,
        value: median(previews),
        unit: 'ms',
        ratio: median(previews) / median(blanks),
        target: '≤ 2× blank frame',
      },
      { name: 'blank frame: srcdoc of the same HTML → drawn (median)', value: median(blanks), unit: 'ms' },
    ]
  } finally {
    await sandbox.close()
  }
}

async function timePreview(page: Page): Promise<number> {
  const toggle = page.getByRole('button', { name: 'Preview', exact: true })
  if ((await toggle.getAttribute('aria-pressed')) === 'true') await toggle.click()
  await page.locator('.post-preview').waitFor({ state: 'detached' })
  await page.waitForTimeout(200)
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const button = [...document.querySelectorAll('button')].find((candidate) => candidate.textContent === 'Preview')!
        const start = performance.now()
        const observer = new MutationObserver(() => {
          if (document.querySelector('.post-preview__frame')?.getAttribute('data-ready') !== 'true') return
          observer.disconnect()
          requestAnimationFrame(() => {
            const channel = new MessageChannel()
            channel.port1.onmessage = () => resolve(performance.now() - start)
            channel.port2.postMessage(null)
          })
        })
        observer.observe(document.body, { attributes: true, attributeFilter: ['data-ready'], subtree: true })
        button.click()
      }),
  )
}

async function timeBlankFrame(page: Page, html: string): Promise<number> {
  await page.waitForTimeout(200)
  return page.evaluate(
    (content) =>
      new Promise<number>((resolve) => {
        document.querySelector('#bench-blank-frame')?.remove()
        const frame = document.createElement('iframe')
        frame.id = 'bench-blank-frame'
        frame.sandbox.value = 'allow-same-origin'
        frame.style.cssText = 'position: fixed; inset: 0 0 0 50%; width: 50%; height: 100%; pointer-events: none'
        document.body.append(frame)
        const start = performance.now()
        frame.addEventListener(
          'load',
          () =>
            requestAnimationFrame(() => {
              const channel = new MessageChannel()
              channel.port1.onmessage = () => resolve(performance.now() - start)
              channel.port2.postMessage(null)
            }),
          { once: true },
        )
        frame.srcdoc = content
      }),
    html,
  )
}
