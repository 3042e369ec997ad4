import type { ButtonHTMLAttributes } from 'react'
import { classNames } from './classNames'
import './button.css'

export type ButtonVariant = 'primary' | 'secondary' | 'quiet'

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant
  /** Stretches the button to the width of its container. */
  block?: boolean
}

export function Button({ variant = 'secondary', block = false, type = 'button', className, ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      className={classNames('button', `button--${variant}`, block && 'button--block', className)}
      {...rest}
    />
  )
}
