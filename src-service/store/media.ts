// Photo albums, their photos, and files uploaded to weblogs. Rows name the stored files (see media/library.ts);
// dates are W3CDTF in UTC, so they sort as text.
import { insertReturningId } from './dialect'
import type { Engine, Params, Row } from './engine'

export interface Album {
  id: number
  ownerId: number
  /** The owner's display name, for the album's public page. */
  ownerName: string
  title: string
}

export interface PhotoFields {
  title: string
  /** The caption (Atom summary). */
  caption: string | null
  /** The file name in public URLs. */
  filename: string
  mediaType: string
  byteSize: number
  sha256: string
  width: number
  height: number
  location: string | null
  latitude: number | null
  longitude: number | null
  /** When the photo was taken (W3CDTF). */
  taken: string | null
  keywords: string[]
  camera: string | null
  /** When the photo was published (W3CDTF). */
  issued: string
  storedName: string
  thumbnailName: string
  thumbnailWidth: number
  thumbnailHeight: number
}

export interface Photo extends PhotoFields {
  id: number
  albumId: number
  /** When the service stored it. */
  created: string
}

export interface UploadFields {
  filename: string
  mediaType: string
  byteSize: number
  sha256: string
  storedName: string
}

export interface Upload extends UploadFields {
  id: number
  weblogId: number
  created: string
}

const ALBUM_COLUMNS = 'albums.id, albums.owner_id, albums.title, users.display_name AS owner_name'

export class Albums {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  async add(ownerId: number, title: string): Promise<Album> {
    const id = await insertReturningId(this.#db, 'INSERT INTO albums (owner_id, title) VALUES (:ownerId, :title)', {
      ':ownerId': ownerId,
      ':title': title,
    })
    return (await this.find(id))!
  }

  async find(id: number): Promise<Album | null> {
    const row = await this.#db.get(`SELECT ${ALBUM_COLUMNS} FROM albums JOIN users ON users.id = albums.owner_id WHERE albums.id = :id`, {
      ':id': id,
    })
    return row && toAlbum(row)
  }

  /** Oldest first, so a user's listing keeps its order as albums are added. */
  async ownedBy(userId: number): Promise<Album[]> {
    const rows = await this.#db.all(
      `SELECT ${ALBUM_COLUMNS} FROM albums JOIN users ON users.id = albums.owner_id
       WHERE albums.owner_id = :userId ORDER BY albums.id`,
      { ':userId': userId },
    )
    return rows.map(toAlbum)
  }
}

export class Photos {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  /** Stores a photo's record; `now` (W3CDTF) becomes its created time. */
  async add(albumId: number, fields: PhotoFields, now: string): Promise<Photo> {
    const id = await insertReturningId(
      this.#db,
      `INSERT INTO photos (album_id, title, caption, filename, media_type, byte_size, sha256, width, height, location,
                           latitude, longitude, taken, keywords, camera, issued, stored_name, thumbnail_name,
                           thumbnail_width, thumbnail_height, created)
       VALUES (:albumId, :title, :caption, :filename, :mediaType, :byteSize, :sha256, :width, :height, :location,
               :latitude, :longitude, :taken, :keywords, :camera, :issued, :storedName, :thumbnailName,
               :thumbnailWidth, :thumbnailHeight, :now)`,
      { ':albumId': albumId, ...photoParams(fields), ':now': now },
    )
    return { id, albumId, ...fields, created: now }
  }

  async find(id: number): Promise<Photo | null> {
    const row = await this.#db.get('SELECT * FROM photos WHERE id = :id', { ':id': id })
    return row && toPhoto(row)
  }

  /** An album's photos in the order they were taken (undated ones by when they were published), oldest first. */
  async inAlbum(albumId: number): Promise<Photo[]> {
    const rows = await this.#db.all('SELECT * FROM photos WHERE album_id = :albumId ORDER BY coalesce(taken, issued), id', {
      ':albumId': albumId,
    })
    return rows.map(toPhoto)
  }

  /** One page of an album's photos, newest first (by when they were published, then by the order they were stored). */
  async page(albumId: number, offset: number, limit: number): Promise<Photo[]> {
    const rows = await this.#db.all(
      'SELECT * FROM photos WHERE album_id = :albumId ORDER BY issued DESC, id DESC LIMIT :limit OFFSET :offset',
      { ':albumId': albumId, ':limit': limit, ':offset': offset },
    )
    return rows.map(toPhoto)
  }
}

export class Uploads {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  /**
   * Makes other transactions naming files of this weblog wait until the caller's ends, so a name found free (`has`)
   * is still free when added. SQLite's transactions take turns anyway; PostgreSQL's run side by side (READ
   * COMMITTED), where two uploads of one name would both find it free and collide on the unique constraint. The lock
   * is PostgreSQL's advisory one, released at commit: call it inside the recording transaction.
   */
  async lockNames(weblogId: number): Promise<void> {
    if (this.#db.dialect !== 'postgres') return
    await this.#db.get("SELECT pg_advisory_xact_lock(hashtextextended('uploads ' || CAST(:weblogId AS TEXT), 0))", {
      ':weblogId': weblogId,
    })
  }

  /** Whether the weblog already has a file of that name. */
  async has(weblogId: number, filename: string): Promise<boolean> {
    return (
      (await this.#db.get('SELECT 1 AS found FROM uploads WHERE weblog_id = :weblogId AND filename = :filename', {
        ':weblogId': weblogId,
        ':filename': filename,
      })) !== null
    )
  }

  /** Stores an upload's record; `now` (W3CDTF) becomes its created time. Names are unique per weblog. */
  async add(weblogId: number, fields: UploadFields, now: string): Promise<Upload> {
    const id = await insertReturningId(
      this.#db,
      `INSERT INTO uploads (weblog_id, filename, media_type, byte_size, sha256, stored_name, created)
       VALUES (:weblogId, :filename, :mediaType, :byteSize, :sha256, :storedName, :now)`,
      {
        ':weblogId': weblogId,
        ':filename': fields.filename,
        ':mediaType': fields.mediaType,
        ':byteSize': fields.byteSize,
        ':sha256': fields.sha256,
        ':storedName': fields.storedName,
        ':now': now,
      },
    )
    return { id, weblogId, ...fields, created: now }
  }

  /** The file a weblog's public media URL names, by the weblog's slug and the file's name. */
  async findByName(weblogSlug: string, filename: string): Promise<Upload | null> {
    const row = await this.#db.get(
      `SELECT uploads.* FROM uploads JOIN weblogs ON weblogs.id = uploads.weblog_id
       WHERE weblogs.slug = :slug AND uploads.filename = :filename`,
      { ':slug': weblogSlug, ':filename': filename },
    )
    return row && toUpload(row)
  }
}

function photoParams(fields: PhotoFields): Params {
  return {
    ':title': fields.title,
    ':caption': fields.caption,
    ':filename': fields.filename,
    ':mediaType': fields.mediaType,
    ':byteSize': fields.byteSize,
    ':sha256': fields.sha256,
    ':width': fields.width,
    ':height': fields.height,
    ':location': fields.location,
    ':latitude': fields.latitude,
    ':longitude': fields.longitude,
    ':taken': fields.taken,
    ':keywords': JSON.stringify(fields.keywords),
    ':camera': fields.camera,
    ':issued': fields.issued,
    ':storedName': fields.storedName,
    ':thumbnailName': fields.thumbnailName,
    ':thumbnailWidth': fields.thumbnailWidth,
    ':thumbnailHeight': fields.thumbnailHeight,
  }
}

function toAlbum(row: Row): Album {
  return {
    id: Number(row['id']),
    ownerId: Number(row['owner_id']),
    ownerName: String(row['owner_name']),
    title: String(row['title']),
  }
}

function toPhoto(row: Row): Photo {
  return {
    id: Number(row['id']),
    albumId: Number(row['album_id']),
    title: String(row['title']),
    caption: nullableText(row['caption']),
    filename: String(row['filename']),
    mediaType: String(row['media_type']),
    byteSize: Number(row['byte_size']),
    sha256: String(row['sha256']),
    width: Number(row['width']),
    height: Number(row['height']),
    location: nullableText(row['location']),
    latitude: nullableNumber(row['latitude']),
    longitude: nullableNumber(row['longitude']),
    taken: nullableText(row['taken']),
    keywords: JSON.parse(String(row['keywords'])) as string[],
    camera: nullableText(row['camera']),
    issued: String(row['issued']),
    storedName: String(row['stored_name']),
    thumbnailName: String(row['thumbnail_name']),
    thumbnailWidth: Number(row['thumbnail_width']),
    thumbnailHeight: Number(row['thumbnail_height']),
    created: String(row['created']),
  }
}

function toUpload(row: Row): Upload {
  return {
    id: Number(row['id']),
    weblogId: Number(row['weblog_id']),
    filename: String(row['filename']),
    mediaType: String(row['media_type']),
    byteSize: Number(row['byte_size']),
    sha256: String(row['sha256']),
    storedName: String(row['stored_name']),
    created: String(row['created']),
  }
}

function nullableText(value: Row[string] | undefined): string | null {
  return value === null || value === undefined ? null : String(value)
}

function nullableNumber(value: Row[string] | undefined): number | null {
  return value === null || value === undefined ? null : Number(value)
}
