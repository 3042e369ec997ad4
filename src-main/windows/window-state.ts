// Where the window was and how large, so Blogdesk opens where the person left it — unless that place is on a display
// that is no longer connected, where a window could not be reached.
import { screen, type BrowserWindow, type Rectangle } from 'electron'
import { readJsonFile, writeJsonFile } from '../platform'

export interface WindowState {
  /** The window's bounds when neither maximised nor full screen. */
  bounds: Rectangle
  maximized: boolean
  fullScreen: boolean
}

/** How much of the window's top edge must lie on a display for the person to grab it and move it. */
const GRAB_WIDTH = 100
const TITLE_BAR_HEIGHT = 32

export class WindowStateFile {
  readonly file: string

  constructor(file: string) {
    this.file = file
  }

  /** The state saved last, if the window would show on a display connected now; else null. */
  restore(): WindowState | null {
    const saved = readJsonFile(this.file, isWindowState)
    if (!saved) return null
    const workAreas = screen.getAllDisplays().map((display) => display.workArea)
    return isReachable(saved.bounds, workAreas) ? saved : null
  }

  /** Saves where `window` is each time it closes (also when the app quits). */
  track(window: BrowserWindow): void {
    window.on('close', () => {
      const state: WindowState = {
        bounds: window.getNormalBounds(),
        maximized: window.isMaximized(),
        fullScreen: window.isFullScreen(),
      }
      try {
        writeJsonFile(this.file, state)
      } catch (error) {
        console.error('Blogdesk could not remember where its window was:', error)
      }
    })
  }
}

/** Whether the window's title bar lies, far enough to be grabbed, within one of the displays' work areas. */
export function isReachable(bounds: Rectangle, workAreas: readonly Rectangle[]): boolean {
  return workAreas.some((area) => {
    const overlap = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x)
    const titleBarInside = bounds.y >= area.y && bounds.y + TITLE_BAR_HEIGHT <= area.y + area.height
    return titleBarInside && overlap >= Math.min(GRAB_WIDTH, bounds.width)
  })
}

function isWindowState(value: unknown): value is WindowState {
  if (typeof value !== 'object' || value === null) return false
  const { bounds, maximized, fullScreen } = value as Partial<Record<keyof WindowState, unknown>>
  if (typeof maximized !== 'boolean' || typeof fullScreen !== 'boolean') return false
  if (typeof bounds !== 'object' || bounds === null) return false
  const { x, y, width, height } = bounds as Partial<Record<keyof Rectangle, unknown>>
  return [x, y, width, height].every(Number.isInteger) && (width as number) > 0 && (height as number) > 0
}
