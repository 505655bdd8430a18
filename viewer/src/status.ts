import { t } from './messages'
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
  const reload = () => button(t('viewer.reload'), () => location.reload())
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
            paragraph(t('viewer.unreadable.title'), 'status-title'),
            paragraph(t('viewer.unreadable.message')),
            ...download(t('viewer.downloadInstead'), true),
          )
          break
        case 'no-pages':
          el.append(
            paragraph(t('viewer.noPages.title'), 'status-title'),
            paragraph(t('viewer.noPages.message')),
            ...download(t('viewer.downloadPdf'), true),
          )
          break
        case 'network':
          el.append(
            paragraph(t('viewer.network.title'), 'status-title'),
            paragraph(t('viewer.network.message')),
            button(t('viewer.retry'), problem.retry),
            ...download(t('viewer.downloadPdf')),
          )
          break
        case 'stalled':
          el.append(
            paragraph(t('viewer.stalled.title'), 'status-title'),
            paragraph(t('viewer.stalled.message', { seconds: problem.seconds })),
            button(t('viewer.retry'), problem.retry),
            ...download(t('viewer.downloadPdf')),
          )
          break
        case 'slow':
          el.append(
            paragraph(t('viewer.slow.title'), 'status-title'),
            paragraph(t('viewer.slow.message', { seconds: problem.seconds })),
            reload(),
            ...download(t('viewer.downloadPdf')),
          )
          break
        case 'no-viewer':
          el.append(
            paragraph(t('viewer.noViewer.title'), 'status-title'),
            paragraph(t('viewer.noViewer.message')),
            reload(),
            ...download(t('viewer.downloadPdf')),
          )
          break
        case 'replaced':
          el.append(paragraph(t('viewer.replaced.title'), 'status-title'), paragraph(t('viewer.replaced.message')), reload())
          break
        case 'not-counted':
          el.append(paragraph(t('viewer.notCounted.title'), 'status-title'), paragraph(t('viewer.notCounted.message')), reload())
          break
        case 'password-on-server':
          el.append(paragraph(t('viewer.protected.title'), 'status-title'), paragraph(t('viewer.protectedOnServer.message')))
          break
        case 'password':
          el.append(paragraph(t('viewer.protected.title'), 'status-title'), passwordForm(problem), ...download(t('viewer.downloadPdf')))
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
          el.append(
            spinner,
            paragraph(
              progress === undefined ? t('viewer.loading') : t('viewer.loadingProgress', { progress: Math.round(progress * 100) / 100 }),
            ),
          )
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
  hint.textContent = problem.incorrect ? t('viewer.password.wrong') : t('viewer.password.hint')
  if (problem.incorrect) hint.className = 'status-warning'
  const label = document.createElement('label')
  label.htmlFor = 'document-password'
  label.className = 'visually-hidden'
  label.textContent = t('viewer.password.label')
  const input = document.createElement('input')
  input.id = 'document-password'
  input.type = 'password'
  input.autocomplete = 'off'
  input.required = true
  input.setAttribute('aria-describedby', 'password-hint')
  const submit = document.createElement('button')
  submit.type = 'submit'
  submit.className = 'button'
  submit.textContent = t('viewer.password.open')
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
