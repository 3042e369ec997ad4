// A page's styles as one stylesheet: its <style> elements and linked sheets in document order, each linked sheet
// (and each sheet it @imports) read through the allowed fetch and put in its place, its url()s made absolute. The
// preview frame can then show the weblog's look from a single inline <style>, with no network of its own.
import type { AllowedFetch } from './page-fetch'
import { LookFailure } from './page-fetch'
import { attribute, elementsOf, readRawText, type HtmlDocument } from './html-tree'

/** Bounds on what one page's styles may cost: a weblog's theme is a few sheets of tens of kilobytes. */
export const MAX_STYLESHEET_BYTES = 1024 * 1024
export const MAX_STYLESHEETS = 16
export const MAX_CSS_CHARS = 2 * 1024 * 1024
const MAX_IMPORT_DEPTH = 3

const CSS_ACCEPT = 'text/css,*/*;q=0.1'
/** `@import url(x) media;` or `@import "x" media;` */
const IMPORT = /@import\s+(?:url\(\s*(['"]?)([^'")]*)\1\s*\)|(['"])([^'"]*)\3)\s*([^;]*);/gi
const URL_FUNCTION = /url\(\s*(['"]?)([^'")]*)\1\s*\)/gi

export interface PageStyles {
  css: string
  /** Linked sheets left out (on another server, too large, not answering), for the person to be told. */
  skipped: string[]
}

export async function stylesOf(document: HtmlDocument, pageUrl: string, fetch: AllowedFetch): Promise<PageStyles> {
  const budget = { sheets: MAX_STYLESHEETS, skipped: [] as string[] }
  const parts: string[] = []
  for (const element of elementsOf(document)) {
    const media = attribute(element, 'media')
    if (!appliesOnScreen(media)) continue
    if (element.name === 'style') {
      parts.push(withinMedia(await inlineImports(absoluteUrls(readRawText(element), pageUrl), pageUrl, fetch, budget, 0), media))
    } else if (element.name === 'link' && isStylesheetLink(attribute(element, 'rel'))) {
      const href = attribute(element, 'href')
      if (!href) continue
      const sheet = await readSheet(absolute(href, pageUrl), fetch, budget, 0)
      if (sheet !== null) parts.push(withinMedia(sheet, media))
    }
  }
  const css = parts.join('\n')
  if (css.length > MAX_CSS_CHARS) throw new LookFailure(`its stylesheets come to more than ${MAX_CSS_CHARS / 1024 / 1024} MB`)
  return { css, skipped: budget.skipped }
}

interface Budget {
  sheets: number
  skipped: string[]
}

async function readSheet(url: string | null, fetch: AllowedFetch, budget: Budget, depth: number): Promise<string | null> {
  if (url === null) return null
  if (depth > MAX_IMPORT_DEPTH || budget.sheets <= 0 || !fetch.allows(url)) {
    budget.skipped.push(url)
    return null
  }
  budget.sheets -= 1
  try {
    const sheet = await fetch.text(url, { maxBytes: MAX_STYLESHEET_BYTES, accept: CSS_ACCEPT })
    // A server's error page sent with 200 is not a stylesheet.
    if (/html/i.test(sheet.contentType)) throw new LookFailure(`${url} is not a stylesheet`)
    return await inlineImports(absoluteUrls(sheet.body, sheet.url), sheet.url, fetch, budget, depth + 1)
  } catch (error) {
    if (!(error instanceof LookFailure)) throw error
    budget.skipped.push(url)
    return null
  }
}

async function inlineImports(css: string, baseUrl: string, fetch: AllowedFetch, budget: Budget, depth: number): Promise<string> {
  const imports = [...css.matchAll(IMPORT)]
  if (imports.length === 0) return safeInStyleElement(css)
  const sheets = new Map<string, string>()
  for (const found of imports) {
    const sheet = await readSheet(absolute(found[2] ?? found[4] ?? '', baseUrl), fetch, budget, depth)
    sheets.set(found[0], sheet === null ? '' : withinMedia(sheet, found[5]?.trim() || null))
  }
  return safeInStyleElement(css.replace(IMPORT, (rule) => sheets.get(rule) ?? ''))
}

/** url()s relative to the sheet, made absolute: in the preview's document they would be relative to nothing. */
function absoluteUrls(css: string, sheetUrl: string): string {
  return css.replace(URL_FUNCTION, (whole, _quote: string, target: string) => {
    if (/^data:/i.test(target.trim())) return whole
    const url = absolute(target.trim(), sheetUrl)
    return url === null ? 'none' : `url("${url.replace(/["\\\n]/g, (character) => `\\${character.charCodeAt(0).toString(16)} `)}")`
  })
}

/** `<` has no meaning in CSS outside strings, where its escape means the same: no `</style>` can end the element. */
function safeInStyleElement(css: string): string {
  return css.replace(/</g, '\\3c ')
}

function withinMedia(css: string, media: string | null): string {
  return media === null || /^\s*all\s*$/i.test(media) ? css : `@media ${media.replace(/[{}<;]/g, '')} {\n${css}\n}`
}

/** Sheets for print or speech only are not the look on screen. */
function appliesOnScreen(media: string | null): boolean {
  if (media === null || media.trim() === '') return true
  return media.split(',').some((query) => !/^\s*(?:only\s+)?(?:print|speech|aural|braille|embossed|handheld|projection|tty|tv)\b/i.test(query))
}

function isStylesheetLink(rel: string | null): boolean {
  const tokens = (rel ?? '').toLowerCase().split(/\s+/)
  return tokens.includes('stylesheet') && !tokens.includes('alternate')
}

function absolute(href: string, base: string): string | null {
  try {
    const url = new URL(href, base)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}
