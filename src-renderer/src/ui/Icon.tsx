import { classNames } from './classNames'
import './icon.css'

// 20×20 line icons, drawn with the current text colour. Decorative: the text beside them names the control.
const paths = {
  drafts: 'M4 16.5V13l8.5-8.5 3.5 3.5L7.5 16.5H4Zm7-10.5 3.5 3.5',
  posts: 'M5.5 3h6l3 3v11h-9V3Zm6 0v3h3M8 10h5M8 13h5',
  categories: 'M3.5 10.2V4h6.2l7 7-6.2 6.2-7-7ZM7 7.5h.01',
  album: 'M3 5h14v10H3V5Zm0 8 4-4 3 3 2-2 5 5M12.5 8.5h.01',
  list: 'M7.5 5.5H16M7.5 10H16M7.5 14.5H16M4 5.5h.01M4 10h.01M4 14.5h.01',
  friends: 'M7.5 9a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Zm-5 7c.5-2.8 2.4-4.5 5-4.5s4.5 1.7 5 4.5M13 4.3a2.5 2.5 0 0 1 0 4.4M15 11.8c1.3.7 2.2 2.1 2.5 4.2',
  outbox: 'M3 11h4l1 2h4l1-2h4M3 11l2.5-6h9L17 11v5H3v-5ZM10 3v6m-2.2-2.2L10 9l2.2-2.2',
  settings:
    'M10 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5ZM10 2.5v2M10 15.5v2M17.5 10h-2M4.5 10h-2M15.3 4.7l-1.4 1.4M6.1 13.9l-1.4 1.4M15.3 15.3l-1.4-1.4M6.1 6.1 4.7 4.7',
  plus: 'M10 4v12M4 10h12',
  sandbox: 'M4 15.5h12M5.5 15.5 7 9h6l1.5 6.5M8.5 9V5.5h3V9M8 3.5h4',
  external: 'M11.5 3.5h5v5M16.5 3.5 9 11M14 11.5v5h-10v-10h5',
  search: 'M8.5 14a5.5 5.5 0 1 0 0-11 5.5 5.5 0 0 0 0 11Zm3.9-1.6L17 17',
} as const

export type IconName = keyof typeof paths

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg className={classNames('icon', className)} viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
      <path d={paths[name]} />
    </svg>
  )
}
