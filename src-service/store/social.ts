// The social graph: groups and who belongs to them, relationships between people (directional: Ana calling Ben a
// neighbour says nothing of Ben), favourite posts, and comments on posts. Dates are W3CDTF in UTC.
import { idList, insertReturningId } from './dialect'
import type { Engine, Row } from './engine'

export interface Group {
  id: number
  urlId: string
  displayName: string
  tagline: string | null
  /** The group's own website; null when its page on this service is its site. */
  siteUrl: string | null
}

export type NewGroup = Omit<Group, 'id' | 'urlId'>

export type MembershipRole = 'Admin' | 'Member'

export interface Membership {
  userId: number
  role: MembershipRole
  created: string
}

const GROUP_COLUMNS = `groups.id, groups.display_name, groups.tagline, groups.site_url, url_ids.url_id
  FROM groups JOIN url_ids ON url_ids.object_type = 'Group' AND url_ids.object_id = groups.id`

export class Groups {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  async add(group: NewGroup): Promise<Group> {
    const id = await insertReturningId(
      this.#db,
      'INSERT INTO groups (display_name, tagline, site_url) VALUES (:displayName, :tagline, :siteUrl)',
      { ':displayName': group.displayName, ':tagline': group.tagline, ':siteUrl': group.siteUrl },
    )
    return (await this.find(id))!
  }

  async find(id: number): Promise<Group | null> {
    return (await this.many([id])).get(id) ?? null
  }

  async many(ids: readonly number[]): Promise<Map<number, Group>> {
    const rows = await this.#db.all(`SELECT ${GROUP_COLUMNS} WHERE groups.id IN (${idList(this.#db.dialect)})`, {
      ':ids': JSON.stringify(ids),
    })
    return new Map(rows.map((row) => [Number(row['id']), toGroup(row)]))
  }

  async findByUrlId(urlId: string): Promise<Group | null> {
    const row = await this.#db.get(`SELECT ${GROUP_COLUMNS} WHERE url_ids.url_id = :urlId`, { ':urlId': urlId })
    return row && toGroup(row)
  }

  /** The oldest group of that name. */
  async findByName(displayName: string): Promise<Group | null> {
    const row = await this.#db.get(`SELECT ${GROUP_COLUMNS} WHERE groups.display_name = :displayName ORDER BY groups.id`, {
      ':displayName': displayName,
    })
    return row && toGroup(row)
  }

  /** Makes the user a member (a second join keeps the first one's role and date). */
  async join(groupId: number, userId: number, role: MembershipRole, created: string): Promise<void> {
    await this.#db.run(
      `INSERT INTO group_memberships (group_id, user_id, role, created) VALUES (:groupId, :userId, :role, :created)
       ON CONFLICT (group_id, user_id) DO NOTHING`,
      { ':groupId': groupId, ':userId': userId, ':role': role, ':created': created },
    )
  }

  /** Members in the order they joined. */
  async members(groupId: number): Promise<Membership[]> {
    const rows = await this.#db.all(
      'SELECT user_id, role, created FROM group_memberships WHERE group_id = :groupId ORDER BY created, user_id',
      { ':groupId': groupId },
    )
    return rows.map((row) => ({
        userId: Number(row['user_id']),
        role: String(row['role']) as MembershipRole,
        created: String(row['created']),
    }))
  }

  /** The groups a user belongs to, the one joined first first. */
  async groupsOf(userId: number): Promise<Group[]> {
    const rows = await this.#db.all(
      `SELECT ${GROUP_COLUMNS} JOIN group_memberships ON group_memberships.group_id = groups.id
       WHERE group_memberships.user_id = :userId ORDER BY group_memberships.created, groups.id`,
      { ':userId': userId },
    )
    return rows.map(toGroup)
  }
}

function toGroup(row: Row): Group {
  return {
    id: Number(row['id']),
    urlId: String(row['url_id']),
    displayName: String(row['display_name']),
    tagline: row['tagline'] === null ? null : String(row['tagline']),
    siteUrl: row['site_url'] === null ? null : String(row['site_url']),
  }
}

/** A neighbour is someone whose doings you follow; a friend, someone you also know. */
export type RelationshipKind = 'neighbor' | 'friend'

export class Relationships {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  /** Records that `sourceId` has `targetId` as a `kind`; false when that was already so. */
  async add(sourceId: number, targetId: number, kind: RelationshipKind, created: string): Promise<boolean> {
    // One statement, so two adding at once (two instances on one database) cannot both find it missing.
    const added = await this.#db.run(
      `INSERT INTO relationships (source_id, target_id, kind, created) VALUES (:sourceId, :targetId, :kind, :created)
       ON CONFLICT (source_id, kind, target_id) DO NOTHING`,
      { ':sourceId': sourceId, ':targetId': targetId, ':kind': kind, ':created': created },
    )
    return added === 1
  }

  async has(sourceId: number, targetId: number, kind: RelationshipKind): Promise<boolean> {
    return (
      (await this.#db.get(
        'SELECT 1 AS found FROM relationships WHERE source_id = :sourceId AND kind = :kind AND target_id = :targetId',
        { ':sourceId': sourceId, ':targetId': targetId, ':kind': kind },
      )) !== null
    )
  }

  /** Whom `sourceId` has as a `kind`, in the order they were added. */
  async targetsOf(sourceId: number, kind: RelationshipKind): Promise<number[]> {
    const rows = await this.#db.all(
      'SELECT target_id FROM relationships WHERE source_id = :sourceId AND kind = :kind ORDER BY created, target_id',
      { ':sourceId': sourceId, ':kind': kind },
    )
    return rows.map((row) => Number(row['target_id']))
  }
}

export class Favorites {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  /** Marks the post as one of the user's favourites; false when it already was. */
  async add(userId: number, postId: number, created: string): Promise<boolean> {
    const added = await this.#db.run(
      `INSERT INTO favorites (user_id, post_id, created) VALUES (:userId, :postId, :created)
       ON CONFLICT (user_id, post_id) DO NOTHING`,
      { ':userId': userId, ':postId': postId, ':created': created },
    )
    return added === 1
  }

  async has(userId: number, postId: number): Promise<boolean> {
    return (
      (await this.#db.get('SELECT 1 AS found FROM favorites WHERE user_id = :userId AND post_id = :postId', {
        ':userId': userId,
        ':postId': postId,
      })) !== null
    )
  }

  /** How many people favour each post; posts nobody favours are left out. */
  async countsFor(postIds: readonly number[]): Promise<Map<number, number>> {
    return counts(
      await this.#db.all(
        `SELECT post_id AS id, count(*) AS n FROM favorites
         WHERE post_id IN (${idList(this.#db.dialect)}) GROUP BY post_id`,
        { ':ids': JSON.stringify(postIds) },
      ),
    )
  }
}

/** `html`: markup as written; `html_convert_linebreaks`: markup whose line breaks become paragraphs and breaks. */
export type CommentFormat = 'html' | 'html_convert_linebreaks'

export interface NewComment {
  postId: number
  authorId: number
  /** The comment this one answers; null for a comment on the post itself. */
  inReplyTo: number | null
  content: string
  textFormat: CommentFormat
  published: string
}

export interface Comment extends NewComment {
  id: number
}

export class Comments {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  async add(comment: NewComment): Promise<Comment> {
    if (comment.inReplyTo !== null && (await this.find(comment.inReplyTo))?.postId !== comment.postId) {
      throw new RangeError(`Comment ${comment.inReplyTo} is not on post ${comment.postId}, so it cannot be answered there`)
    }
    const id = await insertReturningId(
      this.#db,
      `INSERT INTO comments (post_id, author_id, in_reply_to, content, text_format, published)
       VALUES (:postId, :authorId, :inReplyTo, :content, :textFormat, :published)`,
      {
        ':postId': comment.postId,
        ':authorId': comment.authorId,
        ':inReplyTo': comment.inReplyTo,
        ':content': comment.content,
        ':textFormat': comment.textFormat,
        ':published': comment.published,
      },
    )
    return { id, ...comment }
  }

  async find(id: number): Promise<Comment | null> {
    return (await this.many([id])).get(id) ?? null
  }

  async many(ids: readonly number[]): Promise<Map<number, Comment>> {
    const rows = await this.#db.all(`SELECT * FROM comments WHERE id IN (${idList(this.#db.dialect)})`, {
      ':ids': JSON.stringify(ids),
    })
    return new Map(rows.map((row) => [Number(row['id']), toComment(row)]))
  }

  /** How many comments each post has, replies included; posts without any are left out. */
  async countsForPosts(postIds: readonly number[]): Promise<Map<number, number>> {
    return counts(
      await this.#db.all(
        `SELECT post_id AS id, count(*) AS n FROM comments
         WHERE post_id IN (${idList(this.#db.dialect)}) GROUP BY post_id`,
        { ':ids': JSON.stringify(postIds) },
      ),
    )
  }

  /** How many replies each comment has; comments without any are left out. */
  async replyCounts(commentIds: readonly number[]): Promise<Map<number, number>> {
    return counts(
      await this.#db.all(
        `SELECT in_reply_to AS id, count(*) AS n FROM comments
         WHERE in_reply_to IN (${idList(this.#db.dialect)}) GROUP BY in_reply_to`,
        { ':ids': JSON.stringify(commentIds) },
      ),
    )
  }
}

function toComment(row: Row): Comment {
  return {
    id: Number(row['id']),
    postId: Number(row['post_id']),
    authorId: Number(row['author_id']),
    inReplyTo: row['in_reply_to'] === null ? null : Number(row['in_reply_to']),
    content: String(row['content']),
    textFormat: String(row['text_format']) as CommentFormat,
    published: String(row['published']),
  }
}

function counts(rows: Row[]): Map<number, number> {
  return new Map(rows.map((row) => [Number(row['id']), Number(row['n'])]))
}
