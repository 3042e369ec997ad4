import { useId, type FormEvent } from 'react'
import type { AccountSummary, JsonConnection } from '../../../../src-shared/contract'
import { Button, ErrorNotice, Spinner, TextField } from '../../ui'
import { isHttpUrl } from './isHttpUrl'
import { useAccountsStore } from './store'
import { useFormFields, type FieldErrors } from './useFormFields'

type Details = Omit<JsonConnection, 'accountId'>

/**
 * The account's JSON side, for the activity feed: the service's address and the API key Blogdesk was registered
 * with; then the person signs in with OAuth in a window of their own, and can cancel while Blogdesk waits.
 */
export function ConnectJsonForm({ account }: { account: AccountSummary }) {
  const signIn = useAccountsStore((state) => state.signIns[account.id])
  const connectJson = useAccountsStore((state) => state.connectJson)
  const cancelSignIn = useAccountsStore((state) => state.cancelSignIn)
  const { values: details, field, allFine } = useFormFields<Details>({ jsonBase: account.json?.jsonBase ?? '', apiKey: '', apiSecret: '' }, checkDetails)
  const titleId = useId()
  const waiting = signIn?.status === 'busy'

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (waiting || !allFine(event.currentTarget)) return
    void connectJson({ accountId: account.id, jsonBase: details.jsonBase.trim(), apiKey: details.apiKey.trim(), apiSecret: details.apiSecret })
  }

  return (
    <form className="account-form" aria-labelledby={titleId} aria-busy={waiting} noValidate onSubmit={submit}>
      <h2 className="account-form__title" id={titleId}>
        Activity feed
      </h2>
      {account.json?.username ? (
        <p className="account-form__lead">
          Connected to {displayHost(account.json.jsonBase)} as <strong>{account.json.username}</strong>. Sign in again below to connect with
          another API key.
        </p>
      ) : (
        <p className="account-form__lead">
          To follow friends’ activity, connect this account to its JSON service: give the API key Blogdesk was registered with, then sign in
          with OAuth in the window that opens.
        </p>
      )}
      <TextField
        label="JSON base URL"
        hint="The address of the service’s JSON interface, such as https://api.example.com."
        type="url"
        inputMode="url"
        spellCheck={false}
        placeholder="https://"
        {...field('jsonBase', waiting)}
      />
      <TextField
        label="API key"
        spellCheck={false}
        autoCapitalize="none"
        {...field('apiKey', waiting)}
      />
      <TextField
        label="API secret"
        type="password"
        autoComplete="off"
        {...field('apiSecret', waiting)}
      />
      {signIn?.status === 'failed' && <ErrorNotice error={signIn.error} />}
      {waiting ? (
        <div className="account-form__waiting">
          <Spinner label="Waiting for you to sign in and approve Blogdesk in the sign-in window…" />
          <Button onClick={() => void cancelSignIn(account.id)}>Cancel</Button>
        </div>
      ) : (
        <div className="account-form__actions">
          <Button type="submit" variant="primary">
            Sign in with OAuth
          </Button>
        </div>
      )}
    </form>
  )
}

function checkDetails(details: Details): FieldErrors<Details> {
  const errors: FieldErrors<Details> = {}
  const jsonBase = details.jsonBase.trim()
  if (jsonBase === '') errors.jsonBase = 'Enter the address of the JSON service.'
  else if (!isHttpUrl(jsonBase)) errors.jsonBase = 'Enter a full address starting with http:// or https://.'
  if (details.apiKey.trim() === '') errors.apiKey = 'Enter the API key.'
  if (details.apiSecret === '') errors.apiSecret = 'Enter the API secret that goes with the key.'
  return errors
}

function displayHost(url: string): string {
  return new URL(url).host
}
