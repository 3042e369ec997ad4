import { useId, type InputHTMLAttributes } from 'react'
import { classNames } from './classNames'
import './text-field.css'

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string
  /** A line of guidance under the label, read out with the field. */
  hint?: string
  /** What is wrong with the value; marks the field invalid. */
  error?: string | null
}

export function TextField({ label, hint, error, className, ...input }: TextFieldProps) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = classNames(hint && hintId, error && errorId) || undefined
  return (
    <div className={classNames('text-field', error && 'text-field--invalid', className)}>
      <label className="text-field__label" htmlFor={id}>
        {label}
      </label>
      {hint && (
        <p className="text-field__hint" id={hintId}>
          {hint}
        </p>
      )}
      <input className="text-field__input" id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {error && (
        <p className="text-field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  )
}
