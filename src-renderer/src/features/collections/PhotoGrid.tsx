import { useRef, useState, type KeyboardEvent } from 'react'
import type { AlbumPhoto } from '../../../../src-shared/contract'
import { openInBrowser } from '../../lib/links'
import { Icon } from '../../ui'
import { formatTaken } from './format'
import './photo-grid.css'

/**
 * An album's photos as a grid of thumbnails, one Tab stop: the arrow keys move between photos (up and down by a row,
 * as laid out), Home and End to the first and last, Enter opens the photo's page in the browser. Thumbnails live on
 * the server: while it cannot be reached (`showThumbnails` false) each photo shows a placeholder instead.
 */
export function PhotoGrid({ photos, label, showThumbnails }: { photos: readonly AlbumPhoto[]; label: string; showThumbnails: boolean }) {
  const [active, setActive] = useState(0)
  const list = useRef<HTMLUListElement>(null)
  const current = Math.min(active, photos.length - 1)

  function tiles(): HTMLButtonElement[] {
    return Array.from(list.current?.querySelectorAll<HTMLButtonElement>('.photo-tile') ?? [])
  }

  /** Photos in a row, as the grid lays them out at this width. */
  function columns(all: HTMLButtonElement[]): number {
    const top = all[0]?.offsetTop
    const count = all.findIndex((tile) => tile.offsetTop !== top)
    return count === -1 ? all.length : count
  }

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const all = tiles()
    const step: Record<string, number> = {
      ArrowRight: 1,
      ArrowLeft: -1,
      ArrowDown: columns(all),
      ArrowUp: -columns(all),
      Home: -all.length,
      End: all.length,
    }
    if (!(event.key in step)) return
    event.preventDefault()
    const next = Math.max(0, Math.min(all.length - 1, current + step[event.key]!))
    setActive(next)
    all[next]?.focus()
  }

  return (
    <ul className="photo-grid" aria-label={label} ref={list} onKeyDown={onKeyDown}>
      {photos.map((photo, index) => (
        <li key={`${photo.url ?? photo.title}-${index}`} className="photo-grid__item">
          <button
            type="button"
            className="photo-tile"
            tabIndex={index === current ? 0 : -1}
            disabled={photo.url === null}
            onFocus={() => setActive(index)}
            onClick={() => photo.url && void openInBrowser(photo.url)}
          >
            {showThumbnails && photo.thumbnailUrl ? (
              <img className="photo-tile__image" src={photo.thumbnailUrl} alt={photo.caption ?? photo.title} loading="lazy" />
            ) : (
              <span className="photo-tile__image photo-tile__image--none" aria-hidden="true">
                <Icon name="album" />
              </span>
            )}
            <span className="photo-tile__title">{photo.title}</span>
            {photo.takenAt && <span className="photo-tile__taken">Taken {formatTaken(photo.takenAt)}</span>}
          </button>
        </li>
      ))}
    </ul>
  )
}
