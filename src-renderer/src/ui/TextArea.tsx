import { useId, type TextareaHTMLAttributes } from 'react'
import { classNames } from './classNames'
import './text-area.css'

export interface TextAreaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string
  /** A line of guidance under the label, read out with the field. */
  hint?: string
}

/** A labelled field for a few lines of text, such as notes or a review. */
export function TextArea({ label, hint, className, rows = 3, ...textarea }: TextAreaProps) {
  const id = useId()
  const hintId = `${id}-hint`
  return (
    <div className={classNames('text-area', className)}>
      <label className="text-area__label" htmlFor={id}>
        {label}
      </label>
      {hint && (
        <p className="text-area__hint" id={hintId}>
          {hint}
        </p>
      )}
      <textarea className="text-area__input" id={id} rows={rows} aria-describedby={hint ? hintId : undefined} {...textarea} />
    </div>
  )
}
