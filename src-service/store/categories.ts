// A weblog's categories: the only names a post's dc:subject may carry (spec §2.7). Names are unique per weblog
// without regard to (ASCII) case, and a post keeps the spelling the weblog gave them.
import { insertReturningId } from './dialect'
import type { Engine, Row } from './engine'

export interface Category {
  id: number
  weblogId: number
  name: string
}

export interface CategoryMatch {
  /** The weblog's categories that were asked for, each once, in the order first asked. */
  found: Category[]
  /** Names the weblog has no category for, as they were asked. */
  unknown: string[]
}

export class Categories {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  async add(weblogId: number, name: string): Promise<Category> {
    const trimmed = name.trim()
    if (trimmed === '') throw new RangeError('A category needs a name')
    const id = await insertReturningId(this.#db, 'INSERT INTO categories (weblog_id, name) VALUES (:weblogId, :name)', {
      ':weblogId': weblogId,
      ':name': trimmed,
    })
    return { id, weblogId, name: trimmed }
  }

  /** Alphabetical, as a person scans a list of categories. */
  async of(weblogId: number): Promise<Category[]> {
    const rows = await this.#db.all('SELECT id, weblog_id, name FROM categories WHERE weblog_id = :weblogId ORDER BY name, id', {
      ':weblogId': weblogId,
    })
    return rows.map(toCategory)
  }

  /** Looks `names` up among the weblog's categories; surrounding whitespace and repeats are ignored. */
  async match(weblogId: number, names: readonly string[]): Promise<CategoryMatch> {
    const byName = new Map((await this.of(weblogId)).map((category) => [foldCase(category.name), category]))
    const found = new Map<number, Category>()
    const unknown: string[] = []
    for (const name of names) {
      const trimmed = name.trim()
      if (trimmed === '') continue
      const category = byName.get(foldCase(trimmed))
      if (category) found.set(category.id, category)
      else if (!unknown.includes(trimmed)) unknown.push(trimmed)
    }
    return { found: [...found.values()], unknown }
  }
}

// The column compares with SQLite's NOCASE, which folds ASCII letters only; so does this.
export function foldCase(name: string): string {
  return name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
}

function toCategory(row: Row): Category {
  return { id: Number(row['id']), weblogId: Number(row['weblog_id']), name: String(row['name']) }
}
