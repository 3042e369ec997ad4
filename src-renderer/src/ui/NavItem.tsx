import type { ButtonHTMLAttributes, ReactNode } from 'react'
import { classNames } from './classNames'
import { Icon, type IconName } from './Icon'
import './nav-item.css'

export interface NavItemProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  /** The place this item shows is the one in view: drawn selected and announced as the current page. */
  selected: boolean
  icon?: IconName
  children: ReactNode
  /** A count or a short word at the end, such as the number of new events. */
  badge?: ReactNode
}

/** One place to go in the sidebar. */
export function NavItem({ selected, icon, children, badge, className, ...rest }: NavItemProps) {
  return (
    <button
      type="button"
      className={classNames('nav-item', selected && 'nav-item--selected', className)}
      aria-current={selected ? 'page' : undefined}
      {...rest}
    >
      {icon && <Icon name={icon} className="nav-item__icon" />}
      <span className="nav-item__label">{children}</span>
      {badge !== undefined && badge !== null && <span className="nav-item__badge">{badge}</span>}
    </button>
  )
}
