import { useId, useRef, useState, type FormEvent } from 'react'
import type { NewAccount } from '../../../../src-shared/contract'
import { Button, ErrorNotice, Spinner, TextField, isRetryable } from '../../ui'
import { isHttpUrl } from './isHttpUrl'
import { useAccountsStore } from './store'
import './accounts.css'

type FieldErrors = Partial<Record<keyof NewAccount, string>>

/** The fields in the order they appear, so the first one needing attention gets the focus. */
const fieldOrder: (keyof NewAccount)[] = ['atomBase', 'username', 'apiPassword']

export interface AddAccountFormProps {
  /** The form's heading, which also names it for assistive technology. */
  title: string
  /** Shows a Cancel button; left out where the form is the only way forward (first run). */
  onCancel?: () => void
}

export function AddAccountForm({ title, onCancel }: AddAccountFormProps) {
  const [details, setDetails] = useState<NewAccount>({ atomBase: '', username: '', apiPassword: '' })
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({})
  const adding = useAccountsStore((state) => state.adding)
  const addAccount = useAccountsStore((state) => state.addAccount)
  const titleId = useId()
  const formRef = useRef<HTMLFormElement>(null)
  const checking = adding.status === 'busy'

  const edit = (field: keyof NewAccount, value: string) => {
    setDetails((current) => ({ ...current, [field]: value }))
    setFieldErrors((current) => ({ ...current, [field]: undefined }))
  }

  const submit = () => {
    const errors = checkDetails(details)
    setFieldErrors(errors)
    const firstInvalid = fieldOrder.find((field) => errors[field])
    if (firstInvalid) {
      const input = formRef.current?.elements.namedItem(firstInvalid)
      if (input instanceof HTMLInputElement) input.focus()
      return
    }
    void addAccount({ atomBase: details.atomBase.trim(), username: details.username.trim(), apiPassword: details.apiPassword })
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!checking) submit()
  }

  return (
    <form ref={formRef} className="add-account" aria-labelledby={titleId} aria-busy={checking} noValidate onSubmit={onSubmit}>
      <h2 className="add-account__title" id={titleId}>
        {title}
      </h2>
      <TextField
        label="Atom base URL"
        hint="The address of the server's Atom API, such as https://blog.example.com or …/mt-atom.cgi/weblog."
        type="url"
        inputMode="url"
        autoComplete="url"
        spellCheck={false}
        placeholder="https://"
        name="atomBase"
        value={details.atomBase}
        onChange={(event) => edit('atomBase', event.target.value)}
        readOnly={checking}
        error={fieldErrors.atomBase}
      />
      <TextField
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        name="username"
        value={details.username}
        onChange={(event) => edit('username', event.target.value)}
        readOnly={checking}
        error={fieldErrors.username}
      />
      <TextField
        label="API password"
        hint="The password for publishing tools (WSSE), not the one you log in with."
        type="password"
        autoComplete="current-password"
        name="apiPassword"
        value={details.apiPassword}
        onChange={(event) => edit('apiPassword', event.target.value)}
        readOnly={checking}
        error={fieldErrors.apiPassword}
      />
      {adding.status === 'failed' && (
        <ErrorNotice error={adding.error} onRetry={isRetryable(adding.error.code) ? submit : undefined} />
      )}
      <div className="add-account__actions">
        {onCancel && (
          <Button variant="quiet" onClick={onCancel} disabled={checking}>
            Cancel
          </Button>
        )}
        <Button type="submit" variant="primary" disabled={checking}>
          {checking ? <Spinner label="Checking…" /> : 'Add account'}
        </Button>
      </div>
    </form>
  )
}

function checkDetails(details: NewAccount): FieldErrors {
  const errors: FieldErrors = {}
  const atomBase = details.atomBase.trim()
  if (atomBase === '') errors.atomBase = "Enter the address of the server's Atom API."
  else if (!isHttpUrl(atomBase)) {
    errors.atomBase = 'Enter a full address starting with http:// or https://, such as https://blog.example.com.'
  }
  if (details.username.trim() === '') errors.username = 'Enter your username on that server.'
  if (details.apiPassword === '') errors.apiPassword = 'Enter the API password.'
  return errors
}
