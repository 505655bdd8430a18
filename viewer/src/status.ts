/**
 * What went wrong, when the document (or the connection) cannot be shown. Each has its own words and its own
 * way out; the download is offered with every one of them when the owner allows it.
 */
export type Problem =
  /** pdf.js cannot parse the file (InvalidPDFException, or any error of the worker while opening it). */
  | { kind: 'unreadable' }
  /** The PDF opened but has no pages. */
  | { kind: 'no-pages' }
  /** A request for the PDF's bytes failed: the connection broke, or the server answered an error. */
  | { kind: 'network'; retry: () => void }
  /** Requests for the PDF's bytes are open but nothing has arrived for a long time. */
  | { kind: 'stalled'; seconds: number; retry: () => void }
  /** Still opening after a long time without anything arriving (e.g. pdf.js's worker never loaded). */
  | { kind: 'slow'; seconds: number }
  /** The viewer itself could not start (its worker script did not load). */
  | { kind: 'no-viewer' }
  /** The PDF was replaced on the server while it was open. */
  | { kind: 'replaced' }
  /** A page of a link with a view limit whose visit was not counted, twice: the server keeps its bytes closed. */
  | { kind: 'not-counted' }
  /** A link that shows pages drawn on the server, of a PDF that cannot be opened without its password there. */
  | { kind: 'password-on-server' }
  /** The PDF needs a password (pdf.js checks it in the browser; it is never sent anywhere). */
  | { kind: 'password'; incorrect: boolean; submit: (password: string) => void }

export type Status = {
  readonly state: 'loading' | 'ready' | 'error'
  /** Loading, with the spinner over the document area; `quiet`: nothing shown (page 1 drawn by the server is). */
  loading(progress?: number, options?: { quiet?: boolean }): void
  ready(): void
  problem(problem: Problem): void
}

/** The loading and error states shown over the document area (#status, a polite live region). */
export function createStatus(element: HTMLElement, downloadUrl: string | null): Status {
  let state: Status['state'] = 'loading'
  const set = (next: Status['state'], problem: Problem['kind'] | null, build: (el: HTMLElement) => void, quiet = false) => {
    state = next
    element.dataset.state = next
    if (problem) element.dataset.problem = problem
    else delete element.dataset.problem
    element.replaceChildren()
    build(element)
    element.hidden = next === 'ready' || quiet
  }
  const paragraph = (text: string, className?: string) => {
    const p = document.createElement('p')
    if (className) p.className = className
    p.textContent = text
    return p
  }
  const button = (text: string, action: () => void) => {
    const b = document.createElement('button')
    b.type = 'button'
    b.className = 'button'
    b.textContent = text
    b.addEventListener('click', action)
    return b
  }
  const reload = () => button('Reload the page', () => location.reload())
  /** The download link when the owner allows it: the way out when the document is the problem, else an extra. */
  const download = (text: string, main = false) => {
    if (!downloadUrl) return []
    const link = document.createElement('a')
    link.href = downloadUrl
    link.className = main ? 'button' : 'button secondary'
    link.textContent = text
    return [link]
  }

  const show = (problem: Problem) => {
    set('error', problem.kind, (el) => {
      switch (problem.kind) {
        case 'unreadable':
          el.append(
            paragraph('This document cannot be displayed', 'status-title'),
            paragraph('The file is damaged, or it is not a PDF this viewer can read. Another PDF reader may still open it.'),
            ...download('Download the PDF instead', true),
          )
          break
        case 'no-pages':
          el.append(
            paragraph('This document has no pages', 'status-title'),
            paragraph('The PDF opened, but there is no page in it to show.'),
            ...download('Download the PDF', true),
          )
          break
        case 'network':
          el.append(
            paragraph('The document could not be loaded', 'status-title'),
            paragraph('The connection to the server broke off. Check your connection and retry.'),
            button('Retry', problem.retry),
            ...download('Download the PDF'),
          )
          break
        case 'stalled':
          el.append(
            paragraph('The document is not arriving', 'status-title'),
            paragraph(`Nothing has arrived from the server for ${problem.seconds} seconds. Check your connection and retry.`),
            button('Retry', problem.retry),
            ...download('Download the PDF'),
          )
          break
        case 'slow':
          el.append(
            paragraph('Opening the document is taking too long', 'status-title'),
            paragraph(
              `Nothing has happened for ${problem.seconds} seconds. It may still appear; if it does not, check your connection and reload the page.`,
            ),
            reload(),
            ...download('Download the PDF'),
          )
          break
        case 'no-viewer':
          el.append(
            paragraph('The viewer could not start', 'status-title'),
            paragraph('A part of the viewer did not load. Check your connection and reload the page.'),
            reload(),
            ...download('Download the PDF'),
          )
          break
        case 'replaced':
          el.append(
            paragraph('This document was replaced', 'status-title'),
            paragraph('The owner uploaded a new version while it was open. Reload the page to see it.'),
            reload(),
          )
          break
        case 'not-counted':
          el.append(
            paragraph('This visit could not be counted', 'status-title'),
            paragraph(
              'This document may be opened a limited number of times, and this visit was not counted as one: too many visits came from your network in the last 30 minutes. Try again later.',
            ),
            reload(),
          )
          break
        case 'password-on-server':
          el.append(
            paragraph('This document is password-protected', 'status-title'),
            paragraph(
              'This link shows the pages without sending the PDF, and they cannot be drawn without its password. Ask the sender for a link that allows downloads, or for a copy without a password.',
            ),
          )
          break
        case 'password':
          el.append(
            paragraph('This document is password-protected', 'status-title'),
            passwordForm(problem),
            ...download('Download the PDF'),
          )
          el.querySelector('input')?.focus()
          break
      }
    })
  }

  return {
    get state() {
      return state
    },
    loading(progress, options = {}) {
      set(
        'loading',
        null,
        (el) => {
          const spinner = document.createElement('div')
          spinner.className = 'spinner'
          el.append(spinner, paragraph(progress === undefined ? 'Loading document…' : `Loading document… ${Math.round(progress * 100)}%`))
        },
        options.quiet,
      )
    },
    ready() {
      set('ready', null, () => {})
    },
    problem: show,
  }
}

/** Asks for the PDF's password; pdf.js checks and uses it in the browser (no form is ever submitted). */
function passwordForm(problem: Extract<Problem, { kind: 'password' }>): HTMLFormElement {
  const form = document.createElement('form')
  form.className = 'password-form'
  const hint = document.createElement('p')
  hint.id = 'password-hint'
  hint.textContent = problem.incorrect ? 'That password is not correct. Try again.' : 'Enter its password to open it.'
  if (problem.incorrect) hint.className = 'status-warning'
  const label = document.createElement('label')
  label.htmlFor = 'document-password'
  label.className = 'visually-hidden'
  label.textContent = 'Password'
  const input = document.createElement('input')
  input.id = 'document-password'
  input.type = 'password'
  input.autocomplete = 'off'
  input.required = true
  input.setAttribute('aria-describedby', 'password-hint')
  const submit = document.createElement('button')
  submit.type = 'submit'
  submit.className = 'button'
  submit.textContent = 'Open'
  const row = document.createElement('div')
  row.className = 'password-row'
  row.append(label, input, submit)
  form.append(hint, row)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    if (input.value) problem.submit(input.value)
  })
  return form
}
