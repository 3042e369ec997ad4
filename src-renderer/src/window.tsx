// The window's code, imported by the entry (main.tsx) once it has sent the first screen's reads.
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { KeyboardLayer } from './features/keyboard'
import { markWindowDrawn } from './lib/whenIdle'
import { startWindow } from './startWindow'

/**
 * How long the window's code, once run, waits for its first screen's answers (asked for by the entry, usually on
 * their way or in by then) before it draws what it has, spinners where answers are missing: drawing once with them
 * costs one render and one layout of the whole frame instead of one per answer. Short, so the window is never
 * blank for long on a slow answer.
 */
const FIRST_SCREEN_WAIT_MS = 200

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element to mount Blogdesk in.')

const firstScreen = startWindow()
void Promise.race([firstScreen, new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS))]).then(() => {
  createRoot(container).render(
    <StrictMode>
      <KeyboardLayer />
      <App />
    </StrictMode>,
  )
  requestAnimationFrame(markWindowDrawn)
})
