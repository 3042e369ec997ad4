import { useId, useMemo, useState, type MouseEvent } from 'react'
import type { ConflictChoice, PostDraft, PostVersion } from '../../../../src-shared/contract'
import { toApiError, type ApiError } from '../../lib/apiError'
import { Button, ErrorNotice, TextField, classNames } from '../../ui'
import { CategoryPicker } from './CategoryPicker'
import { formatExact, formatWhen } from './dates'
import { diffLines } from './lineDiff'
import { linkOf, openableUrl, openInBrowser } from '../../lib/links'
import { sanitizeHtml } from './sanitize'
import { usePostsStore } from './store'
import './conflict-view.css'

export interface ConflictViewProps {
  draft: PostDraft
  onResolved(draft: PostDraft): void
}

type Merged = Pick<PostVersion, 'title' | 'content' | 'categories'>

/**
 * The post changed on the server while it was being edited here: both versions side by side, what changed line by
 * line, and the person's choice — send theirs over the server's, take the server's, or merge the two by hand.
 */
export function ConflictView({ draft, onResolved }: ConflictViewProps) {
  const headingId = useId()
  const [merging, setMerging] = useState(false)
  const [merged, setMerged] = useState<Merged>({ title: draft.title, content: draft.content, categories: draft.categories })
  const [busy, setBusy] = useState<ConflictChoice | null>(null)
  const [error, setError] = useState<ApiError | null>(null)
  const resolveConflict = usePostsStore((state) => state.resolveConflict)
  const server = draft.conflict
  const title = draft.title.trim() || 'Untitled'

  async function resolve(choice: ConflictChoice) {
    setBusy(choice)
    setError(null)
    try {
      onResolved(await resolveConflict({ draftId: draft.id, choice, merged: choice === 'merged' ? merged : null }))
    } catch (failure) {
      setError(toApiError(failure))
    } finally {
      setBusy(null)
    }
  }

  if (!server) {
    return (
      <section className="conflict-view" aria-labelledby={headingId}>
        <h2 className="conflict-view__title" id={headingId}>
          “{title}” is no longer in conflict
        </h2>
        <p className="conflict-view__lead">The server’s version is not here any more; reopen the post to see where it stands.</p>
      </section>
    )
  }

  return (
    <section className="conflict-view" aria-labelledby={headingId}>
      <header className="conflict-view__header">
        <h2 className="conflict-view__title" id={headingId}>
          “{title}” was changed on the server
        </h2>
        <p className="conflict-view__lead">
          Someone changed this post on the weblog
          {server.modified && (
            <>
              {' '}
              <time dateTime={server.modified} title={formatExact(server.modified)}>
                {formatWhen(server.modified)}
              </time>
            </>
          )}
          , after you started editing it here. Nothing is sent until you choose which version to keep.
        </p>
        {error && <ErrorNotice error={error} />}
        {!merging && (
          <div className="conflict-view__choices" role="group" aria-label="Resolve the conflict">
            <Choice label="Keep mine" hint="Publish your version in place of the server’s." busy={busy} choice="mine" onChoose={resolve} primary />
            <Choice label="Keep theirs" hint="Take the server’s version; yours stays in the revision history." busy={busy} choice="theirs" onChoose={resolve} />
            <div className="conflict-view__choice">
              <Button disabled={busy !== null} onClick={() => setMerging(true)}>
                Merge by hand
              </Button>
              <span className="conflict-view__hint">Combine the two yourself, then publish the result.</span>
            </div>
          </div>
        )}
      </header>

      {merging ? (
        <MergeForm
          draft={draft}
          merged={merged}
          busy={busy !== null}
          onChange={setMerged}
          onSubmit={() => void resolve('merged')}
          onCancel={() => setMerging(false)}
        />
      ) : (
        <>
          <div className="conflict-view__columns">
            <VersionColumn heading="Yours" version={draft} />
            <VersionColumn heading="On the server" version={server} />
          </div>
          <ChangedLines mine={draft} theirs={server} />
        </>
      )}
    </section>
  )
}

function Choice({
  label,
  hint,
  choice,
  busy,
  primary = false,
  onChoose,
}: {
  label: string
  hint: string
  choice: ConflictChoice
  busy: ConflictChoice | null
  primary?: boolean
  onChoose(choice: ConflictChoice): void
}) {
  const hintId = useId()
  return (
    <div className="conflict-view__choice">
      <Button variant={primary ? 'primary' : 'secondary'} disabled={busy !== null} aria-describedby={hintId} onClick={() => onChoose(choice)}>
        {busy === choice ? 'Working…' : label}
      </Button>
      <span className="conflict-view__hint" id={hintId}>
        {hint}
      </span>
    </div>
  )
}

function VersionColumn({ heading, version }: { heading: string; version: Merged }) {
  const headingId = useId()
  const html = useMemo(() => sanitizeHtml(version.content), [version.content])
  return (
    <article className="conflict-version" aria-labelledby={headingId}>
      <h3 className="conflict-version__heading" id={headingId}>
        {heading}
      </h3>
      <p className="conflict-version__title">{version.title.trim() || 'Untitled'}</p>
      <p className="conflict-version__categories">
        {version.categories.length > 0 ? `Categories: ${version.categories.join(', ')}` : 'No categories'}
      </p>
      <div className="conflict-version__content" onClick={followLink} dangerouslySetInnerHTML={{ __html: html }} />
    </article>
  )
}

function ChangedLines({ mine, theirs }: { mine: Merged; theirs: Merged }) {
  const lines = useMemo(
    () => diffLines([`Title: ${theirs.title}`, ...textLines(theirs.content)], [`Title: ${mine.title}`, ...textLines(mine.content)]),
    [mine.title, mine.content, theirs.title, theirs.content],
  )
  const changed = lines.filter((line) => line.kind !== 'same').length
  return (
    <details className="conflict-diff">
      <summary className="conflict-diff__summary">
        Changed lines ({changed === 0 ? 'the text is the same; markup or categories differ' : changed})
      </summary>
      <ol className="conflict-diff__lines" aria-label="Changes from the server’s version to yours">
        {lines.map((line, index) => (
          <li key={index} className={classNames('conflict-diff__line', `conflict-diff__line--${line.kind}`)}>
            <span className="conflict-diff__marker" aria-hidden="true">
              {line.kind === 'added' ? '+' : line.kind === 'removed' ? '−' : ' '}
            </span>
            {line.kind !== 'same' && <span className="visually-hidden">{line.kind === 'added' ? 'Yours only: ' : 'Server’s only: '}</span>}
            {line.text}
          </li>
        ))}
      </ol>
    </details>
  )
}

function MergeForm({
  draft,
  merged,
  busy,
  onChange,
  onSubmit,
  onCancel,
}: {
  draft: PostDraft
  merged: Merged
  busy: boolean
  onChange(merged: Merged): void
  onSubmit(): void
  onCancel(): void
}) {
  const sourceId = useId()
  const headingId = useId()
  return (
    <form
      className="conflict-merge"
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit()
      }}
    >
      <h3 className="conflict-merge__heading" id={headingId}>
        Merge by hand
      </h3>
      <p className="conflict-view__hint">
        Starts from your version. The server’s text is below to copy from; what you publish here replaces it.
      </p>
      <TextField label="Title" value={merged.title} onChange={(event) => onChange({ ...merged, title: event.target.value })} />
      <CategoryPicker
        accountId={draft.accountId}
        weblogPostUri={draft.weblogPostUri}
        value={merged.categories}
        onChange={(categories) => onChange({ ...merged, categories })}
      />
      <div className="conflict-merge__field">
        <label className="conflict-merge__label" htmlFor={sourceId}>
          HTML source
        </label>
        <textarea
          id={sourceId}
          className="conflict-merge__source"
          spellCheck={false}
          rows={14}
          value={merged.content}
          onChange={(event) => onChange({ ...merged, content: event.target.value })}
        />
      </div>
      {draft.conflict && (
        <details className="conflict-merge__theirs">
          <summary>The server’s HTML source</summary>
          <pre className="conflict-merge__theirs-source">{draft.conflict.content}</pre>
        </details>
      )}
      <div className="conflict-merge__actions">
        <Button onClick={onCancel} disabled={busy}>
          Back to the comparison
        </Button>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Publishing…' : 'Publish merged version'}
        </Button>
      </div>
    </form>
  )
}

/** A link in shown HTML opens in the browser; nothing inside it may navigate Blogdesk's window. */
function followLink(event: MouseEvent) {
  const anchor = linkOf(event.target)
  if (!anchor) return
  event.preventDefault()
  const url = openableUrl(anchor.getAttribute('href'))
  if (url) void openInBrowser(url)
}

const BLOCK_BOUNDARY = /<\/?(?:p|div|h[1-6]|li|ul|ol|blockquote|pre|tr|table|figure|figcaption|hr|section|article|header|footer)\b[^>]*>|<br\s*\/?>/gi

/** The text of a post, one line per paragraph, heading, list item or line break. */
function textLines(html: string): string[] {
  const marked = html.replace(BLOCK_BOUNDARY, (tag) => `${tag}\n`)
  // A parsed document is inert: nothing in it runs or loads.
  const text = new DOMParser().parseFromString(marked, 'text/html').body.textContent ?? ''
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
}
