import { useId, useLayoutEffect, useRef, useState, type ButtonHTMLAttributes, type KeyboardEvent, type ReactNode } from 'react'
import { classNames } from './classNames'
import { ROVING_GROUP, ROVING_ITEM, useRovingFocus } from './roving'
import './menu-button.css'

export interface MenuItem {
  id: string
  label: string
  /** The shortcut shown beside the label ("Ctrl+B"). */
  keysShown?: string
  /** A toggle's state: the item is then a checkbox item. */
  checked?: boolean
  disabled?: boolean
  onSelect(): void
}

export interface MenuButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onSelect'> {
  /** The menu's name, for assistive technology. */
  label: string
  items: MenuItem[]
  /** What the button shows (an icon); its name is `label`. */
  children: ReactNode
  /** Whether the menu's items act on something they must not take the focus from (the text's selection). */
  keepFocus?: boolean
}

/**
 * A button that opens a menu, as WAI-ARIA's menu button pattern has it: Enter, Space or Down opens it on its first item,
 * Up on its last; Up, Down, Home and End move in it; Escape closes it and gives the focus back to the button.
 */
export function MenuButton({ label, items, children, keepFocus = false, className, ...buttonProps }: MenuButtonProps) {
  const [open, setOpen] = useState<'first' | 'last' | null>(null)
  const menuId = useId()
  const buttonId = useId()
  const menuElement = useRef<HTMLDivElement>(null)
  const menu = useRovingFocus(menuElement, 'vertical')

  useLayoutEffect(() => {
    if (open === null) return
    const menuItems = menuElement.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]')
    menuItems?.[open === 'first' ? 0 : menuItems.length - 1]?.focus()
  }, [open])

  function close(giveFocusBack: boolean) {
    setOpen(null)
    if (giveFocusBack) document.getElementById(buttonId)?.focus()
  }

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      setOpen(event.key === 'ArrowDown' ? 'first' : 'last')
    }
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      close(true)
    } else if (event.key === 'Tab') {
      close(false)
    } else {
      menu.onKeyDown(event)
      // The menu's keys stay in the menu: the toolbar around it must not move the focus as well.
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) event.preventDefault()
    }
  }

  return (
    <span className="menu-button">
      <button
        {...buttonProps}
        id={buttonId}
        type="button"
        className={className}
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open !== null ? menuId : undefined}
        onMouseDown={keepFocus ? (event) => event.preventDefault() : undefined}
        onClick={() => (open === null ? setOpen('first') : close(true))}
        onKeyDown={onButtonKeyDown}
      >
        {children}
      </button>
      {open !== null && (
        <div
          {...ROVING_GROUP}
          ref={menuElement}
          id={menuId}
          className="menu-button__menu"
          role="menu"
          aria-labelledby={buttonId}
          onKeyDown={onMenuKeyDown}
          onFocus={menu.onFocus}
          onBlur={(event) => {
            const next = event.relatedTarget
            if (!(next instanceof Node) || (!event.currentTarget.contains(next) && next !== document.getElementById(buttonId))) setOpen(null)
          }}
        >
          {items.map((item) => (
            <button
              {...ROVING_ITEM}
              key={item.id}
              type="button"
              className={classNames('menu-button__item', item.checked && 'menu-button__item--checked')}
              role={item.checked === undefined ? 'menuitem' : 'menuitemcheckbox'}
              aria-checked={item.checked}
              aria-disabled={item.disabled || undefined}
              onMouseDown={keepFocus ? (event) => event.preventDefault() : undefined}
              onClick={() => {
                if (item.disabled) return
                close(false)
                item.onSelect()
              }}
            >
              <span className="menu-button__check" aria-hidden="true">
                {item.checked ? '✓' : ''}
              </span>
              <span className="menu-button__label">{item.label}</span>
              {item.keysShown && <span className="menu-button__keys">{item.keysShown}</span>}
            </button>
          ))}
        </div>
      )}
    </span>
  )
}
