import { useId, useState, type FormEvent } from 'react'
import type { AccountSummary } from '../../../../src-shared/contract'
import { Button, ErrorNotice, Spinner, TextField } from '../../ui'
import { toApiError, type ApiError } from '../../lib/apiError'
import { useAccountsStore } from './store'

/** A new API password, checked with the server before it is kept; publishing that was paused goes on. */
export function ChangePasswordForm({ account }: { account: AccountSummary }) {
  const updatePassword = useAccountsStore((state) => state.updatePassword)
  const [password, setPassword] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [request, setRequest] = useState<{ status: 'idle' | 'busy' | 'saved' } | { status: 'failed'; error: ApiError }>({ status: 'idle' })
  const titleId = useId()
  const checking = request.status === 'busy'

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (checking) return
    if (password === '') {
      setFieldError('Enter the new API password.')
      return
    }
    setRequest({ status: 'busy' })
    try {
      await updatePassword(account.id, password)
      setPassword('')
      setRequest({ status: 'saved' })
    } catch (error) {
      setRequest({ status: 'failed', error: toApiError(error) })
    }
  }

  return (
    <form className="account-form" aria-labelledby={titleId} aria-busy={checking} noValidate onSubmit={(event) => void submit(event)}>
      <h2 className="account-form__title" id={titleId}>
        API password
      </h2>
      <p className="account-form__lead">
        {account.paused
          ? 'Blogdesk holds everything it could not send until the server accepts a new API password.'
          : 'If you changed the API password on the server, give Blogdesk the new one here.'}
      </p>
      <TextField
        label="New API password"
        type="password"
        autoComplete="new-password"
        name="apiPassword"
        value={password}
        onChange={(event) => {
          setPassword(event.target.value)
          setFieldError(null)
          if (request.status !== 'busy') setRequest({ status: 'idle' })
        }}
        readOnly={checking}
        error={fieldError}
      />
      {request.status === 'failed' && <ErrorNotice error={request.error} />}
      {request.status === 'saved' && (
        <p className="account-form__done" role="status">
          The server accepted the new API password. Publishing goes on.
        </p>
      )}
      <div className="account-form__actions">
        <Button type="submit" variant="primary" disabled={checking}>
          {checking ? <Spinner label="Checking…" /> : 'Save API password'}
        </Button>
      </div>
    </form>
  )
}
