import { useId, useState } from 'react'
import { Button, classNames } from '../../ui'

const STARS = [1, 2, 3, 4, 5]

/**
 * A 1–5 rating as a group of radio buttons: arrow keys move between the stars, as in any radio group, and each star
 * is announced as "3 stars". No star chosen means no rating.
 */
export function StarRating({ value, onChange }: { value: number | null; onChange(value: number | null): void }) {
  const name = useId()
  const [hovered, setHovered] = useState<number | null>(null)
  const lit = hovered ?? value ?? 0
  return (
    <fieldset className="star-rating">
      <legend className="star-rating__legend">Rating</legend>
      <div className="star-rating__row">
        <div className="star-rating__stars" onMouseLeave={() => setHovered(null)}>
          {STARS.map((stars) => (
            <label
              key={stars}
              className={classNames('star-rating__star', stars <= lit && 'star-rating__star--lit')}
              onMouseEnter={() => setHovered(stars)}
            >
              <input
                type="radio"
                className="visually-hidden"
                name={name}
                value={stars}
                checked={value === stars}
                onChange={() => onChange(stars)}
              />
              <span aria-hidden="true">★</span>
              <span className="visually-hidden">{stars === 1 ? '1 star' : `${stars} stars`}</span>
            </label>
          ))}
        </div>
        <span className="star-rating__value" aria-hidden="true">
          {value === null ? 'Not rated' : `${value} of 5`}
        </span>
        {value !== null && (
          <Button variant="quiet" className="star-rating__clear" onClick={() => onChange(null)}>
            Clear rating
          </Button>
        )}
      </div>
    </fieldset>
  )
}

/** A rating as it reads in the list: five stars, some filled, announced as "Rated 4 out of 5". */
export function Stars({ rating }: { rating: number }) {
  return (
    <span className="stars" role="img" aria-label={`Rated ${rating} out of 5`}>
      {STARS.map((star) => (
        <span key={star} className={classNames('stars__star', star <= rating && 'stars__star--lit')} aria-hidden="true">
          ★
        </span>
      ))}
    </span>
  )
}
