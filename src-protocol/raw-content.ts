// The content of elements kept as written (XHTML entry content, text constructs): checked, but never built into
// elements, so that a large body costs a scan instead of a tree, and it is stored and sent on exactly as its author
// wrote it.
import type { NamespaceScope} from './namespace-scope';
import { isNamespaceDeclaration, twoPrefixesError, type Binding } from './namespace-scope'
import { decodeAttribute, decodeText, isWhitespace } from './xml-text'

/** A namespace declaration that markup cut out of its document needs, to be written into the start tag at `at`. */
export interface NeededDeclaration {
  at: number
  prefix: string
  uri: string
}

/**
 * A stretch of a checked document kept as markup: `source.slice(start, end)`, which stands alone (is namespace
 * well-formed) once `declarations` are written into its top-level start tags.
 */
export interface RawMarkup {
  source: string
  start: number
  end: number
  declarations: NeededDeclaration[]
}

/** A top-level element inside raw content, with its own inner markup as a RawMarkup. */
export interface RawChild extends RawMarkup {
  ns: string
  name: string
}

/** The content of an element kept raw: its inner markup and its direct parts. */
export interface RawContent extends RawMarkup {
  /** The element's own character data (CDATA included), decoded. */
  text: string
  /** Whether that character data holds anything but whitespace. */
  hasText: boolean
  children: RawChild[]
}

// The parts of markup that is already known to be well-formed: comments and processing instructions (skipped),
// CDATA sections (literal), end tags, start tags (name, then attributes, whose values may hold ">"; a trailing "/"
// closes the element), and character data.
export const MARKUP_PART =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<\/[^>]*>|<([^\t\n\r />]+)([^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*)>|([^<]+)/g
const START_TAG = /<([^\t\n\r />]+)([^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*)>/y
const ATTRIBUTE = /([^\t\n\r =]+)[\t\n\r ]*=[\t\n\r ]*(?:"([^"]*)"|'([^']*)')/g
// Whether attributes may declare a namespace or use a prefix (a quoted value can match too; it is only a first look).
const MAY_NEED_SCOPE = /[\t\n\r ](?:xmlns|[^\t\n\r =]*:)/

/**
 * Reads the checked markup `source.slice(start, end)`, the content of an element at `depth` with `scope` in force
 * there: resolves every prefix it uses (refusing undeclared ones, like anywhere else in the document), and notes
 * which declarations from outside it (or outside its top-level elements) must travel with it to stand alone.
 */
export function readRawContent(
  source: string,
  start: number,
  end: number,
  scope: NamespaceScope,
  depth: number,
): RawContent {
  const content: RawContent = { source, start, end, declarations: [], text: '', hasText: false, children: [] }
  const marks: number[] = []
  let child: RawChild | null = null
  let topLevelTagAt = 0
  let secondLevelTagAt = 0

  // "at prefix" of every declaration noted, so that each is noted once without searching the lists.
  const noted = new Set<string>()
  const addDeclaration = (list: NeededDeclaration[], at: number, prefix: string, uri: string): void => {
    const key = `${at} ${prefix}`
    if (noted.has(key)) return
    noted.add(key)
    list.push({ at, prefix, uri })
  }
  const addText = (text: string): void => {
    content.text += text
    if (!content.hasText && !isWhitespace(text)) content.hasText = true
  }
  const notePrefixUse = (prefix: string, binding: Binding, level: number): void => {
    if (binding.depth === 0) return // xml:, bound in every document
    const declaredAtLevel = binding.depth - depth
    if (declaredAtLevel <= 0) addDeclaration(content.declarations, topLevelTagAt, prefix, binding.uri)
    if (child && level >= 2 && declaredAtLevel <= 1) {
      addDeclaration(child.declarations, secondLevelTagAt, prefix, binding.uri)
    }
  }

  for (let index = start; index < end; ) {
    const lt = source.indexOf('<', index)
    const textEnd = lt === -1 || lt > end ? end : lt
    if (textEnd > index && marks.length === 0) addText(decodeText(source.slice(index, textEnd)))
    if (textEnd === end) break
    const next = source[lt + 1]
    if (next === '/') {
      scope.restore(marks.pop() ?? 0)
      if (marks.length === 0 && child) child.end = lt
      index = source.indexOf('>', lt) + 1
    } else if (next === '?') {
      index = source.indexOf('?>', lt + 2) + 2
    } else if (source.startsWith('<!--', lt)) {
      index = source.indexOf('-->', lt + 4) + 3
    } else if (next === '!') {
      const cdataEnd = source.indexOf(']]>', lt + 9)
      if (marks.length === 0) addText(source.slice(lt + 9, cdataEnd))
      index = cdataEnd + 3
    } else {
      START_TAG.lastIndex = lt
      const [whole, tag = '', attributeText = ''] = START_TAG.exec(source) as RegExpExecArray
      index = lt + whole.length
      const level = marks.length + 1
      const mark = scope.mark()
      const attributes = MAY_NEED_SCOPE.test(attributeText) ? [...attributeText.matchAll(ATTRIBUTE)] : []
      for (const [, name = '', doubleQuoted, singleQuoted] of attributes) {
        if (!isNamespaceDeclaration(name)) continue
        scope.declare(name, decodeAttribute(doubleQuoted ?? singleQuoted ?? ''), depth + level, tag)
      }
      if (level === 1) {
        topLevelTagAt = lt + 1 + tag.length
        child = { source, start: index, end: index, declarations: [], ns: scope.defaultNamespace(), name: tag }
        content.children.push(child)
      } else if (level === 2) {
        secondLevelTagAt = lt + 1 + tag.length
      }
      const colon = tag.indexOf(':')
      if (colon !== -1) {
        const binding = scope.prefixBinding(tag, colon, tag)
        if (level === 1 && child) {
          child.ns = binding.uri
          child.name = tag.slice(colon + 1)
        }
        notePrefixUse(tag.slice(0, colon), binding, level)
      }
      let prefixedKeys: Set<string> | null = null
      for (const [, name = ''] of attributes) {
        const attributeColon = name.indexOf(':')
        if (attributeColon === -1 || isNamespaceDeclaration(name)) continue
        const binding = scope.prefixBinding(name, attributeColon, tag)
        notePrefixUse(name.slice(0, attributeColon), binding, level)
        const key = `{${binding.uri}}${name.slice(attributeColon + 1)}`
        prefixedKeys ??= new Set()
        if (prefixedKeys.has(key)) throw twoPrefixesError(tag, key)
        prefixedKeys.add(key)
      }
      if (attributeText.endsWith('/')) scope.restore(mark)
      else marks.push(mark)
    }
  }
  return content
}
