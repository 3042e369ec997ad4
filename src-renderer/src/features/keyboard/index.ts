// The keyboard model shared by every screen: skip link, F6 between panes, the shortcuts sheet.
export { KeyboardLayer } from './KeyboardLayer'
export { PANE_ATTRIBUTE, PANE_START_ATTRIBUTE } from './panes'
