// Design-system primitives: presentation only, they never call the API.
import './theme.css'

export { Alert, type AlertProps, type AlertTone } from './Alert'
export { AppShell, type AppShellProps } from './AppShell'
export { Button, type ButtonProps, type ButtonVariant } from './Button'
export { classNames } from './classNames'
export { Card, Pane, type PaneProps } from './Pane'
export { ErrorNotice, isRetryable, type ErrorNoticeProps } from './ErrorNotice'
export { Spinner, type SpinnerProps } from './Spinner'
export { TextField, type TextFieldProps } from './TextField'
