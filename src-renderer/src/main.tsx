import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { KeyboardLayer } from './features/keyboard'
import { startWindow } from './startWindow'

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element to mount Blogdesk in.')

startWindow()
createRoot(container).render(
  <StrictMode>
    <KeyboardLayer />
    <App />
  </StrictMode>,
)
