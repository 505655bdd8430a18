import { t } from './messages'
/**
 * A file request's page, with scripts (routes/sender/answers/pages.ts draws it; without scripts its plain form
 * posts one PDF and gets a receipt page): several PDFs at once, chosen or dropped on the drop zone, each sent as
 * its own upload to the form's address, one after another, with its progress and its receipt (name, size,
 * SHA-256) or the server's reason in a list the screen reader announces.
 */
type Receipt = { files: { filename: string; size: number; sha256: string }[] }

const form = document.querySelector<HTMLFormElement>('form.request-form')
if (form) enhance(form)

function enhance(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('input[type=file]')
  const zone = form.querySelector<HTMLElement>('.drop-zone')
  const list = document.querySelector<HTMLElement>('.upload-list')
  if (!input || !zone || !list) return
  input.multiple = true
  zone.hidden = false
  zone.addEventListener('dragover', (event) => {
    event.preventDefault()
    zone.classList.add('drop-over')
  })
  zone.addEventListener('dragleave', () => zone.classList.remove('drop-over'))
  zone.addEventListener('drop', (event) => {
    event.preventDefault()
    zone.classList.remove('drop-over')
    if (event.dataTransfer?.files.length) input.files = event.dataTransfer.files
    zone.querySelector('.drop-count')!.textContent = t('senderScript.chosen', { count: input.files?.length ?? 0 })
  })
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const files = [...(input.files ?? [])]
    const button = form.querySelector<HTMLButtonElement>('button[type=submit]')
    if (button) button.disabled = true
    for (const file of files) await send(form, file, list)
    if (button) button.disabled = false
    form.reset()
    zone.querySelector('.drop-count')!.textContent = ''
  })
}

/** One PDF as its own upload: the form's fields with this file alone; its line shows the progress, then the answer. */
function send(form: HTMLFormElement, file: File, list: HTMLElement): Promise<void> {
  const item = document.createElement('li')
  const name = document.createElement('span')
  name.textContent = file.name
  const progress = document.createElement('progress')
  progress.max = 1
  progress.value = 0
  progress.setAttribute('aria-label', t('senderScript.sending', { name: file.name }))
  const state = document.createElement('span')
  state.className = 'upload-state'
  item.append(name, progress, state)
  list.append(item)

  const body = new FormData(form)
  body.delete('file')
  body.append('file', file, file.name)
  return new Promise((resolve) => {
    const request = new XMLHttpRequest()
    request.open('POST', form.action)
    request.setRequestHeader('accept', 'application/json')
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) progress.value = event.loaded / event.total
    })
    request.addEventListener('load', () => {
      const answer = parsed(request.responseText)
      if (request.status === 201 && answer && 'files' in answer) {
        progress.value = 1
        const [received] = (answer as Receipt).files
        state.textContent = received
          ? t('senderScript.received', { size: received.size, sha256: received.sha256 })
          : t('senderScript.receivedShort')
        item.classList.add('upload-done')
      } else {
        const why = typeof answer?.error === 'string' ? answer.error : t('senderScript.status', { status: request.status })
        state.textContent = t('senderScript.notSent', { why })
        item.classList.add('upload-failed')
      }
      resolve()
    })
    request.addEventListener('error', () => {
      state.textContent = t('senderScript.connectionFailed')
      item.classList.add('upload-failed')
      resolve()
    })
    request.send(body)
  })
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
