// Names of uploaded files and photos. They appear in public URLs and on pages, never on disk (files are stored
// under names the service makes up), yet they are held to the rules of a careful web server: one path segment,
// nothing hidden, nothing invisible.

const LONGEST_NAME = 200
// C0 and C1 controls, and the bidirectional overrides that make "gpj.exe" read as "exe.jpg".
const INVISIBLE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u

/** Why `name` cannot be a file name, or null when it can. */
export function fileNameProblem(name: string): string | null {
  if (name === '') return 'The file name is empty. Give the file a name such as photo.jpg.'
  if (name.includes('/') || name.includes('\\')) {
    return `The file name "${name}" contains a slash. Send a name without folders, such as photo.jpg.`
  }
  if (name.includes('..')) return `The file name "${name}" contains "..". Send a plain name such as photo.jpg.`
  if (INVISIBLE.test(name)) {
    return 'The file name contains control or invisible characters. Send a name of visible characters only.'
  }
  if (name.startsWith('.')) return `The file name "${name}" starts with a dot. Send a name such as photo.jpg.`
  if (name.length > LONGEST_NAME) return `The file name is longer than ${LONGEST_NAME} characters. Send a shorter one.`
  return null
}

/** "holiday.jpg" → ["holiday", ".jpg"]; a name without a dot has no extension. */
export function splitExtension(name: string): [stem: string, extension: string] {
  const dot = name.lastIndexOf('.')
  return dot <= 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot)]
}

/** `name`, or the first of name_1.ext, name_2.ext, … that `isTaken` says is free. */
export async function firstFreeName(name: string, isTaken: (candidate: string) => Promise<boolean>): Promise<string> {
  if (!(await isTaken(name))) return name
  const [stem, extension] = splitExtension(name)
  for (let number = 1; ; number++) {
    const candidate = `${stem}_${number}${extension}`
    if (!(await isTaken(candidate))) return candidate
  }
}

const LONGEST_SLUG = 80

/**
 * A file name made from a photo's title and its type's extension (spec §2.7: filename is optional): "Tram 28 at
 * Graça" → "tram-28-at-graca.jpg". A title that already ends in the extension ("me.jpg") keeps its name.
 */
export function fileNameFromTitle(title: string, extension: string): string {
  const [stem, titleExtension] = splitExtension(title.trim())
  const sameExtension =
    titleExtension.toLowerCase() === extension || (extension === '.jpg' && titleExtension.toLowerCase() === '.jpeg')
  const base = sameExtension ? stem : title
  const slug = base
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, LONGEST_SLUG)
    .replace(/^-+|-+$/g, '')
  return `${slug || 'photo'}${extension}`
}
