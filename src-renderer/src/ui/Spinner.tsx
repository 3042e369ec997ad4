import { classNames } from './classNames'
import './spinner.css'

export interface SpinnerProps {
  /** What is happening, e.g. "Loading weblogs…"; always announced, shown unless `labelHidden`. */
  label: string
  labelHidden?: boolean
  className?: string
}

export function Spinner({ label, labelHidden = false, className }: SpinnerProps) {
  return (
    <span role="status" className={classNames('spinner', className)}>
      <span className="spinner__ring" aria-hidden="true" />
      <span className={labelHidden ? 'visually-hidden' : 'spinner__label'}>{label}</span>
    </span>
  )
}
