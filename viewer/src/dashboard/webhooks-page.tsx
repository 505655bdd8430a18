import { useEffect, useRef, useState } from 'preact/hooks'
import type { NewWebhookDto, WebhookDto } from '../../../src/routes/webhooks/model'
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS, type WebhookEvent } from '../../../src/shared/webhook-shapes'
import { api, errorText, ok } from './api'
import { formatDate } from './format'
import { ConfirmDialog, copyWithNotice, notify } from './ui'
import { useLoad } from './use-api'
import { DeliveryLog } from './webhook-deliveries'
import { type MessageKey, t, tx } from './i18n'

const EVENT_TEXT: Record<WebhookEvent, MessageKey> = {
  'file.uploaded': 'wh.event.file.uploaded',
  'file.received': 'wh.event.file.received',
  'file.replaced': 'wh.event.file.replaced',
  'file.deleted': 'wh.event.file.deleted',
  'link.viewed': 'wh.event.link.viewed',
  'link.downloaded': 'wh.event.link.downloaded',
}

/** A webhook's URL without scheme, for button names ("Delete… ntfy.home.lan/pdfs"). */
const shortUrl = (url: string) => url.replace(/^https?:\/\//, '')

/** The new webhook's signing secret, shown once: the server keeps it but never shows it again. */
function CreatedSecret(props: { webhook: NewWebhookDto; onDone: () => void }) {
  const field = useRef<HTMLInputElement>(null)
  useEffect(() => field.current?.focus(), [])
  return (
    <div class="created-token created-secret">
      <p role="alert">{tx('wh.created', { warning: <strong>{t('wh.once')}</strong>, header: <code>webhook-signature</code> })}</p>
      <div class="row">
        <input
          ref={field}
          readOnly
          value={props.webhook.secret}
          aria-label={t('wh.secretOf', { url: shortUrl(props.webhook.url) })}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" onClick={() => copyWithNotice(props.webhook.secret, 'secret')}>
          {t('wh.copySecret')}
        </button>
        <button type="button" class="link" onClick={props.onDone}>
          {t('account.done')}
        </button>
      </div>
    </div>
  )
}

function CreateForm(props: { onCreated: (webhook: NewWebhookDto) => void }) {
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<Set<WebhookEvent>>(new Set(['link.viewed', 'link.downloaded']))
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError('')
    try {
      const chosen = WEBHOOK_EVENTS.filter((name) => events.has(name))
      const { data } = await ok(api.api.webhooks.post({ url: url.trim(), events: chosen }))
      setUrl('')
      props.onCreated(data)
    } catch (failure) {
      setError(errorText(failure, t('wh.notCreated')))
    } finally {
      setBusy(false)
    }
  }
  const toggle = (name: WebhookEvent, on: boolean) => {
    const next = new Set(events)
    if (on) next.add(name)
    else next.delete(name)
    setEvents(next)
  }

  return (
    <form class="webhook-form" onSubmit={submit} aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">{t('wh.new')}</h2>
      <div class="field">
        <label for="webhook-url">URL</label>
        <input
          id="webhook-url"
          type="url"
          required
          maxLength={WEBHOOK_LIMITS.url}
          placeholder="https://ntfy.example.org/pdfs"
          value={url}
          aria-describedby="webhook-url-hint"
          onInput={(event) => setUrl(event.currentTarget.value)}
        />
        <span id="webhook-url-hint" class="hint">
          {t('wh.urlHint', { setting: 'PDFSHARE_WEBHOOK_ALLOW_PRIVATE=1' })}
        </span>
      </div>
      <fieldset class="events">
        <legend>{t('wh.events')}</legend>
        {WEBHOOK_EVENTS.map((name) => (
          <label key={name} class="check">
            <input type="checkbox" checked={events.has(name)} onChange={(event) => toggle(name, event.currentTarget.checked)} />
            {t(EVENT_TEXT[name])} <code>{name}</code>
          </label>
        ))}
      </fieldset>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || !url.trim() || events.size === 0}>
        {busy ? t('rooms.creating') : t('wh.create')}
      </button>
      {events.size === 0 && <p class="hint">{t('wh.chooseEvent')}</p>}
    </form>
  )
}

/** The owner's webhooks: create (the secret shown once), the delivery log of each, a test event, delete. */
export function WebhooksPage() {
  const list = useLoad(() => ok(api.api.webhooks.get()), [], { failure: t('wh.loadFailed') })
  const { value: webhooks, error: loadError, set: setWebhooks } = list
  const [created, setCreated] = useState<NewWebhookDto | null>(null)
  const [deleting, setDeleting] = useState<WebhookDto | null>(null)
  /** Per webhook, a number that moves when a test event was queued, so its log is read again. */
  const [revisions, setRevisions] = useState<Record<string, number>>({})

  const test = async (webhook: WebhookDto) => {
    try {
      await ok(api.api.webhooks({ id: webhook.id }).test.post())
      setRevisions((current) => ({ ...current, [webhook.id]: (current[webhook.id] ?? 0) + 1 }))
      notify('ok', t('wh.testQueued', { url: shortUrl(webhook.url) }))
    } catch (failure) {
      notify('error', errorText(failure, t('wh.testFailed')))
    }
  }

  const remove = async (webhook: WebhookDto) => {
    setDeleting(null)
    try {
      await ok(api.api.webhooks({ id: webhook.id }).delete())
      setWebhooks((current) => current?.filter((each) => each.id !== webhook.id) ?? null)
      if (created?.id === webhook.id) setCreated(null)
      notify('ok', t('wh.deleted', { url: shortUrl(webhook.url) }))
      document.getElementById('webhooks-heading')?.focus()
    } catch (failure) {
      notify('error', errorText(failure, t('wh.notDeleted')))
    }
  }

  return (
    <main class="webhooks">
      <h1>{t('title.webhooks')}</h1>
      <p>{t('wh.intro')}</p>
      <section class="card">
        <CreateForm
          onCreated={(webhook) => {
            setCreated(webhook)
            const { secret: _secret, ...listed } = webhook
            setWebhooks((current) => [...(current ?? []), listed])
            notify('ok', t('wh.createdNotice', { url: shortUrl(webhook.url) }))
          }}
        />
        {created && <CreatedSecret webhook={created} onDone={() => setCreated(null)} />}
      </section>
      <section aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading" tabIndex={-1}>
          {t('wh.yours')}
        </h2>
        {loadError && (
          <p class="form-error" role="alert">
            {loadError}
          </p>
        )}
        {webhooks === null && !loadError && <p>{t('wh.loading')}</p>}
        {webhooks && webhooks.length === 0 && <p class="hint">{t('wh.none')}</p>}
        {webhooks && webhooks.length > 0 && (
          <ul class="webhook-list">
            {webhooks.map((webhook) => {
              const label = shortUrl(webhook.url)
              return (
                <li key={webhook.id} class="card webhook" aria-labelledby={`webhook-${webhook.id}`}>
                  <h3 id={`webhook-${webhook.id}`} class="webhook-url">
                    {webhook.url}
                  </h3>
                  <p class="sub">
                    {webhook.events.map((event) => (
                      <code key={event}>{event}</code>
                    ))}{' '}
                    · {t('wh.createdOn', { date: formatDate(webhook.createdAt) })}
                  </p>
                  <div class="row wrap">
                    <button type="button" onClick={() => test(webhook)}>
                      {t('wh.test')}
                      <span class="visually-hidden"> {t('ntf.to', { target: label })}</span>
                    </button>
                    <button type="button" class="danger" onClick={() => setDeleting(webhook)}>
                      {t('links.delete')}
                      <span class="visually-hidden"> {label}</span>
                    </button>
                  </div>
                  <DeliveryLog webhookId={webhook.id} label={label} revision={revisions[webhook.id] ?? 0} />
                </li>
              )
            })}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title={t('wh.confirm', { url: deleting ? shortUrl(deleting.url) : '' })}
        confirm={t('wh.delete')}
        danger
        onConfirm={() => deleting && remove(deleting)}
        onClose={() => setDeleting(null)}
      >
        <p>{t('wh.deleteText')}</p>
      </ConfirmDialog>
    </main>
  )
}
