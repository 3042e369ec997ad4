// Files from the test's disk, given to the page the ways a person gives them: dropped on an element, pasted from
// the clipboard, or chosen in a file input. In Electron the preload learns each File's path from webUtils; here the bridge's shim answers
// from the paths registered below, by file name.
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { TEST_FILE_PATHS } from './bridge'

interface PageFile {
  name: string
  type: string
  base64: string
}

const TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.txt': 'text/plain' }

async function pageFiles(page: Page, paths: readonly string[]): Promise<PageFile[]> {
  const files = await Promise.all(
    paths.map(async (path) => ({
      name: basename(path),
      type: TYPES[path.slice(path.lastIndexOf('.')).toLowerCase()] ?? 'application/octet-stream',
      base64: (await readFile(path)).toString('base64'),
    })),
  )
  await page.evaluate(
    ([key, entries]) => {
      const known = (window as unknown as Record<string, Map<string, string>>)[key]!
      for (const [name, path] of entries) known.set(name, path)
    },
    [TEST_FILE_PATHS, paths.map((path) => [basename(path), path])] as [string, [string, string][]],
  )
  return files
}

/** The files in a DataTransfer inside the page, as a drag or the clipboard carries them. */
async function dataTransferOf(page: Page, paths: readonly string[]) {
  const files = await pageFiles(page, paths)
  return page.evaluateHandle((files) => {
    const transfer = new DataTransfer()
    for (const file of files) {
      const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0))
      transfer.items.add(new File([bytes], file.name, { type: file.type }))
    }
    return transfer
  }, files)
}

/** Drags the files from the desktop onto `target`: dragenter, dragover and drop, each with the files. */
export async function dropFiles(target: Locator, paths: readonly string[]): Promise<void> {
  const dataTransfer = await dataTransferOf(target.page(), paths)
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer })
}

/** Pastes the files into `target`, as Ctrl+V does after copying them (files only, no text on the clipboard). */
export async function pasteFiles(target: Locator, paths: readonly string[]): Promise<void> {
  const clipboardData = await dataTransferOf(target.page(), paths)
  await target.evaluate((element, clipboardData) => {
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }))
  }, clipboardData)
}

/** Chooses the files in a file input, as the system's file picker would. */
export async function chooseFiles(input: Locator, paths: readonly string[]): Promise<void> {
  await pageFiles(input.page(), paths)
  await input.setInputFiles([...paths])
}
