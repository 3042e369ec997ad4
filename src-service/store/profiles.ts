// What the JSON interface shows of a person (spec §2.6, User): their account's names, the url id that stands for
// them in addresses, and the profile they wrote — about me, location, interests, and the colour of their avatar.
// Profiles live beside the users table, not in it: a user who never wrote one simply has none.
import { idList } from './dialect'
import type { Engine, Row } from './engine'
import type { User } from './users'

export interface Profile {
  aboutMe: string | null
  location: string | null
  interests: string[]
  /** `#rrggbb` behind the avatar's initials; null lets the service pick one from the user's url id. */
  avatarColor: string | null
}

export interface Person extends User, Profile {
  urlId: string
}

const AVATAR_COLOR = /^#[0-9a-f]{6}$/

const PERSON_COLUMNS = `users.id, users.username, users.display_name, url_ids.url_id,
  user_profiles.about_me, user_profiles.location, user_profiles.interests, user_profiles.avatar_color
  FROM users
  JOIN url_ids ON url_ids.object_type = 'User' AND url_ids.object_id = users.id
  LEFT JOIN user_profiles ON user_profiles.user_id = users.id`

export class Profiles {
  readonly #db: Engine

  constructor(db: Engine) {
    this.#db = db
  }

  /** Writes the user's whole profile, replacing any earlier one. */
  async set(userId: number, profile: Profile): Promise<void> {
    if (profile.avatarColor !== null && !AVATAR_COLOR.test(profile.avatarColor)) {
      throw new RangeError(`An avatar colour is written #rrggbb in lower case, not ${profile.avatarColor}`)
    }
    await this.#db.run(
      `INSERT INTO user_profiles (user_id, about_me, location, interests, avatar_color)
       VALUES (:userId, :aboutMe, :location, :interests, :avatarColor)
       ON CONFLICT (user_id) DO UPDATE SET about_me = excluded.about_me, location = excluded.location,
         interests = excluded.interests, avatar_color = excluded.avatar_color`,
      {
        ':userId': userId,
        ':aboutMe': profile.aboutMe,
        ':location': profile.location,
        ':interests': JSON.stringify(profile.interests),
        ':avatarColor': profile.avatarColor,
      },
    )
  }

  async person(userId: number): Promise<Person | null> {
    return (await this.people([userId])).get(userId) ?? null
  }

  /** Many people at once, by user id; ids that name nobody are left out. */
  async people(userIds: readonly number[]): Promise<Map<number, Person>> {
    const rows = await this.#db.all(`SELECT ${PERSON_COLUMNS} WHERE users.id IN (${idList(this.#db.dialect)})`, {
      ':ids': JSON.stringify(userIds),
    })
    return new Map(rows.map((row) => [Number(row['id']), toPerson(row)]))
  }

  async findByUrlId(urlId: string): Promise<Person | null> {
    const row = await this.#db.get(`SELECT ${PERSON_COLUMNS} WHERE url_ids.url_id = :urlId`, { ':urlId': urlId })
    return row && toPerson(row)
  }

  /** By username, whatever its case (usernames are unique regardless of case). */
  async findByUsername(username: string): Promise<Person | null> {
    const row = await this.#db.get(`SELECT ${PERSON_COLUMNS} WHERE users.username = :username`, { ':username': username })
    return row && toPerson(row)
  }
}

function toPerson(row: Row): Person {
  const text = (column: string) => (row[column] === null ? null : String(row[column]))
  return {
    id: Number(row['id']),
    username: String(row['username']),
    displayName: String(row['display_name']),
    urlId: String(row['url_id']),
    aboutMe: text('about_me'),
    location: text('location'),
    interests: row['interests'] === null ? [] : (JSON.parse(String(row['interests'])) as string[]),
    avatarColor: text('avatar_color'),
  }
}
