import { useId, useRef, type FormEvent } from 'react'
import type { NewAccount } from '../../../../src-shared/contract'
import { Button, ErrorNotice, Spinner, TextField, isRetryable } from '../../ui'
import { isHttpUrl } from './isHttpUrl'
import { useAccountsStore } from './store'
import { useFormFields, type FieldErrors } from './useFormFields'
import './accounts.css'

export interface AddAccountFormProps {
  /** The form's heading, which also names it for assistive technology. */
  title: string
  /** Shows a Cancel button; left out where the form is the only way forward (first run). */
  onCancel?: () => void
}

export function AddAccountForm({ title, onCancel }: AddAccountFormProps) {
  const { values: details, field, allFine } = useFormFields<NewAccount>({ atomBase: '', username: '', apiPassword: '' }, checkDetails)
  const adding = useAccountsStore((state) => state.adding)
  const addAccount = useAccountsStore((state) => state.addAccount)
  const titleId = useId()
  const formRef = useRef<HTMLFormElement>(null)
  const checking = adding.status === 'busy'

  const submit = () => {
    if (!allFine(formRef.current)) return
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
        {...field('atomBase', checking)}
      />
      <TextField
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        {...field('username', checking)}
      />
      <TextField
        label="API password"
        hint="The password for publishing tools (WSSE), not the one you log in with."
        type="password"
        autoComplete="current-password"
        {...field('apiPassword', checking)}
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

function checkDetails(details: NewAccount): FieldErrors<NewAccount> {
  const errors: FieldErrors<NewAccount> = {}
  const atomBase = details.atomBase.trim()
  if (atomBase === '') errors.atomBase = "Enter the address of the server's Atom API."
  else if (!isHttpUrl(atomBase)) {
    errors.atomBase = 'Enter a full address starting with http:// or https://, such as https://blog.example.com.'
  }
  if (details.username.trim() === '') errors.username = 'Enter your username on that server.'
  if (details.apiPassword === '') errors.apiPassword = 'Enter the API password.'
  return errors
}
