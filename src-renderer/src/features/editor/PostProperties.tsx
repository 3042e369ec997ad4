import { useId, useState } from 'react'
import type { DraftEdit, DraftSummary, PostDraft } from '../../../../src-shared/contract'
import { Alert } from '../../ui'
import { formatExact } from './time'
import './post-properties.css'

export interface PostPropertiesProps {
  draft: PostDraft
  /** The categories chosen now (the picker's; `draft` has them as the editor opened). */
  categories: readonly string[]
  /** The draft as last announced: what the weblog kept of its categories. */
  summary: DraftSummary
  readOnly: boolean
  onChange(properties: Pick<DraftEdit, 'summary' | 'issued'>): void
}

/**
 * What the protocol carries besides the text: the publish date (Atom `issued`: earlier than now back-dates the post,
 * later schedules it) and the excerpt (Atom `summary`). Folded away until opened; opened at once when either is set.
 * Below it, the categories the weblog did not keep, said plainly.
 */
export function PostProperties({ draft, categories, summary, readOnly, onChange }: PostPropertiesProps) {
  const [issued, setIssued] = useState<string | null>(draft.issued)
  const [excerpt, setExcerpt] = useState(draft.summary)
  const id = useId()
  // "Now" as the editor opened: a date is in the future for this session's wording, without re-reading the clock.
  const [openedAt] = useState(() => Date.now())
  const scheduled = issued !== null && Date.parse(issued) > openedAt

  function chooseIssued(next: string | null) {
    setIssued(next)
    onChange({ issued: next })
  }

  return (
    <>
      <details className="post-properties" open={draft.issued !== null || draft.summary !== '' ? true : undefined}>
        <summary className="post-properties__summary">
          Post properties
          <span className="post-properties__brief">
            {issued === null ? ' · dated when published' : ` · ${scheduled ? 'scheduled for' : 'dated'} ${formatExact(issued)}`}
            {excerpt.trim() !== '' && ' · with an excerpt'}
          </span>
        </summary>
        <div className="post-properties__body">
          <fieldset className="post-properties__date" disabled={readOnly}>
            <legend>Publish date</legend>
            <label className="post-properties__choice">
              <input type="radio" name={`${id}-when`} checked={issued === null} onChange={() => chooseIssued(null)} />
              When it is published
            </label>
            <label className="post-properties__choice">
              <input type="radio" name={`${id}-when`} checked={issued !== null} onChange={() => chooseIssued(issued ?? nextHour())} />
              On a date
            </label>
            <input
              type="datetime-local"
              className="post-properties__datetime"
              aria-label="Publish date and time"
              aria-describedby={`${id}-date-hint`}
              value={issued === null ? '' : localInputValue(issued)}
              disabled={issued === null}
              onChange={(event) => {
                const chosen = utcOfLocalInput(event.target.value)
                if (chosen !== null) chooseIssued(chosen)
              }}
            />
            <p className="post-properties__hint" id={`${id}-date-hint`}>
              {scheduled
                ? 'Scheduled: the post stays off the weblog until then. Where the weblog’s server would show it at once, Blogdesk holds it and sends it then, so Blogdesk must be running.'
                : 'A date in the past back-dates the post; one in the future schedules it.'}
            </p>
          </fieldset>
          <label className="post-properties__excerpt">
            <span>Excerpt</span>
            <textarea
              rows={2}
              value={excerpt}
              readOnly={readOnly}
              placeholder="A sentence or two for lists and feeds (optional)"
              onChange={(event) => {
                setExcerpt(event.target.value)
                onChange({ summary: event.target.value })
              }}
            />
          </label>
        </div>
      </details>
      {summary.droppedCategories.length > 0 && (
        <Alert tone="warning" title="The weblog did not keep every category" className="post-properties__dropped">
          <p>
            It filed the post under {categories.filter((name) => !summary.droppedCategories.includes(name)).join(', ') || 'no category'} and
            dropped {summary.droppedCategories.map((name) => `“${name}”`).join(', ')}. Its server keeps fewer categories than were sent
            (Movable Type keeps only the first): choose the one that matters most first, or set the others on the weblog’s own site.
          </p>
        </Alert>
      )}
    </>
  )
}

/** The next full hour from now, in UTC to the second: a starting point for a chosen date. */
function nextHour(): string {
  const date = new Date()
  date.setMinutes(60, 0, 0)
  return isoSeconds(date)
}

/** `2026-12-01T10:00` in the person's own time zone, as a datetime-local field shows it. */
function localInputValue(iso: string): string {
  const date = new Date(iso)
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** What a datetime-local field holds (local time), in UTC to the second; null while it is incomplete. */
function utcOfLocalInput(value: string): string | null {
  if (value === '') return null
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : isoSeconds(date)
}

function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}
