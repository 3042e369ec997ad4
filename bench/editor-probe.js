// Loaded into the editor's page and the reference page before anything else (bench/editor.ts), so its key listeners
// run first. Plain JavaScript: the page runs it as it is.
/* global window, document, requestAnimationFrame, MutationObserver, Selection */
;(() => {
  /** For each typed key: from the key event's timestamp to after the frame that shows the change, and the main-thread time in its events. */
  const samples = []
  const waiters = []
  let current = null

  const afterPaint = (done) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = done
      channel.port2.postMessage(null)
    })

  // Each event of a key is timed from its first listener (capture, on window) to the end of its last one and the
  // microtasks queued until then (ProseMirror reading the change, React updating the toolbar). The last listener is
  // on the window, or on the event's target when the target keeps the event to itself: a listener added there as the
  // event comes down runs after the target's own.
  // Time inside the page's selection calls: setting the selection makes the browser lay the page out and read the
  // editable's text out for input methods. The editor sets it as it inserts a typed character; the plain page's
  // editing command does the same outside any listener. Both are the frame's work, counted in keystroke to paint.
  let selectionTime = 0
  for (const name of ['collapse', 'setBaseAndExtent', 'extend', 'addRange', 'removeAllRanges']) {
    const call = Selection.prototype[name]
    Selection.prototype[name] = function (...args) {
      const started = performance.now()
      try {
        return call.apply(this, args)
      } finally {
        selectionTime += performance.now() - started
      }
    }
  }

  const addEventWork = (sample) => {
    sample.work += sample.eventWork
    sample.eventWork = 0
  }
  for (const type of ['keydown', 'keypress', 'beforeinput', 'input', 'keyup']) {
    window.addEventListener(
      type,
      (event) => {
        if (type === 'keydown') current = { start: event.timeStamp, work: 0, eventWork: 0, changed: false, markEnd: null }
        const sample = current
        if (!sample) return
        addEventWork(sample)
        const eventStart = performance.now()
        const selectionBefore = selectionTime
        sample.markEnd = () => queueMicrotask(() => (sample.eventWork = performance.now() - eventStart - (selectionTime - selectionBefore)))
        event.target.addEventListener(type, sample.markEnd, { once: true })
      },
      true,
    )
    window.addEventListener(type, () => current && current.markEnd && current.markEnd())
  }

  const settle = () => {
    for (const waiter of waiters.filter((candidate) => samples.length >= candidate.count)) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve()
    }
  }

  // The text changed, whoever changed it: the next frame shows it.
  const insideText = (node) => {
    const element = node.nodeType === 1 ? node : node.parentElement
    return element !== null && element.closest('[contenteditable="true"]') !== null
  }
  const changes = new MutationObserver((records) => {
    const sample = current
    if (!sample || sample.changed || !records.some((record) => insideText(record.target))) return
    sample.changed = true
    afterPaint(() => {
      const paint = performance.now() - sample.start
      // keyup comes after the paint at times: its work is counted before the sample is read.
      setTimeout(() => {
        addEventWork(sample)
        samples.push({ paint, work: sample.work })
        settle()
      }, 30)
    })
  })

  window.keyProbe = {
    samples,
    waitFor: (count) => new Promise((resolve) => (samples.length >= count ? resolve() : waiters.push({ count, resolve }))),
  }

  changes.observe(document, { childList: true, subtree: true, characterData: true })

  // When a draft's HTML reaches the page: the app reads drafts through window.blog, wrapped here (the editor's page only).
  window.draftArrivedAt = null
  const drafts = window.blog && window.blog.drafts
  if (drafts) {
    const get = drafts.get.bind(drafts)
    drafts.get = async (request) => {
      const answer = await get(request)
      window.draftArrivedAt = performance.now()
      return answer
    }
  }
})()
