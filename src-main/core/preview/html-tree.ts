// The weblog's page as a tree, parsed the way sanitize-html (a dependency) parses HTML: htmlparser2, forgiving of
// whatever a weblog's templates write. Nothing in it runs or loads; it is only read.
import { DomUtils, parseDocument } from 'htmlparser2'

export type HtmlDocument = ReturnType<typeof parseDocument>
export type HtmlElement = Parameters<typeof DomUtils.getAttributeValue>[0]

export function parseHtml(html: string): HtmlDocument {
  return parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true })
}

/** Every element, in document order. */
export function elementsOf(root: HtmlDocument | HtmlElement): HtmlElement[] {
  return DomUtils.findAll(() => true, root.children)
}

export function attribute(element: HtmlElement, name: string): string | null {
  return DomUtils.getAttributeValue(element, name) ?? null
}

/** The element's text as written (a <style>'s CSS). */
export function readRawText(element: HtmlElement): string {
  return DomUtils.textContent(element)
}

/** The element's text with its runs of white space made one space, as a reader sees it. */
export function readText(node: HtmlDocument | HtmlElement): string {
  return DomUtils.textContent(node).replace(/\s+/g, ' ').trim()
}

export function parentElement(element: HtmlElement): HtmlElement | null {
  const parent = element.parent
  return parent && DomUtils.isTag(parent) ? parent : null
}

/** Whether `ancestor` is `element` or holds it. */
export function contains(ancestor: HtmlElement, element: HtmlElement): boolean {
  for (let at: HtmlElement | null = element; at; at = parentElement(at)) if (at === ancestor) return true
  return false
}
