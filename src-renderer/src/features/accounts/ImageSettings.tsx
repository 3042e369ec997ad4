// The weblog's image setting, kept on this computer: images of its posts wider than this are scaled down to it
// before they are uploaded (the original goes up too only where a post links to it).
import { useEffect, useId, useState } from 'react'
import { IMAGE_WIDTH_LIMITS } from '../../../../src-shared/contract'
import { toApiError } from '../../lib/apiError'
import { Button, Card, TextField } from '../../ui'
import { readWeblogSettings, saveWeblogSettings } from './weblog-settings'

type Status = { kind: 'loading' } | { kind: 'ready'; saved: number } | { kind: 'failed'; message: string }

export function ImageSettings({ accountId, weblogPostUri }: { accountId: string; weblogPostUri: string }) {
  const headingId = useId()
  const [status, setStatus] = useState<Status>({ kind: 'loading' })
  const [width, setWidth] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [done, setDone] = useState<string | null>(null)

  useEffect(() => {
    let current = true
    readWeblogSettings(accountId, weblogPostUri).then(
      (settings) => {
        if (!current) return
        setStatus({ kind: 'ready', saved: settings.maxImageWidth })
        setWidth(String(settings.maxImageWidth))
      },
      (failure: unknown) => current && setStatus({ kind: 'failed', message: toApiError(failure).message }),
    )
    return () => {
      current = false
    }
  }, [accountId, weblogPostUri])

  async function save() {
    const value = Number(width)
    if (!Number.isInteger(value) || value < IMAGE_WIDTH_LIMITS.min || value > IMAGE_WIDTH_LIMITS.max) {
      setError(`Give a width in pixels from ${IMAGE_WIDTH_LIMITS.min} to ${IMAGE_WIDTH_LIMITS.max}.`)
      return
    }
    setError(null)
    setSaving(true)
    try {
      const saved = await saveWeblogSettings(accountId, weblogPostUri, { maxImageWidth: value })
      setStatus({ kind: 'ready', saved: saved.maxImageWidth })
      setDone(`Saved: images are sent at most ${saved.maxImageWidth} pixels wide.`)
    } catch (failure) {
      setError(`Not saved: ${toApiError(failure).message}`)
    } finally {
      setSaving(false)
    }
  }

  return (
    <Card className="image-settings" aria-labelledby={headingId}>
      <h2 className="endpoints__title" id={headingId}>
        Images
      </h2>
      {status.kind === 'failed' ? (
        <p role="alert">{`The image setting could not be read: ${status.message}`}</p>
      ) : (
        <form
          className="image-settings__form"
          onSubmit={(event) => {
            event.preventDefault()
            void save()
          }}
        >
          <TextField
            label="Widest image, in pixels"
            hint="Wider images in a post are scaled down to this before they are uploaded. Kept on this computer."
            type="number"
            inputMode="numeric"
            min={IMAGE_WIDTH_LIMITS.min}
            max={IMAGE_WIDTH_LIMITS.max}
            value={width}
            disabled={status.kind === 'loading'}
            error={error}
            onChange={(event) => {
              setWidth(event.target.value)
              setDone(null)
            }}
          />
          <Button type="submit" disabled={status.kind === 'loading' || saving || (status.kind === 'ready' && String(status.saved) === width)}>
            {saving ? 'Saving…' : 'Save'}
          </Button>
          <p className="image-settings__status" role="status">
            {done}
          </p>
        </form>
      )}
    </Card>
  )
}
