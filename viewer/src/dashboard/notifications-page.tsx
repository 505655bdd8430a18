import { useState } from 'preact/hooks'
import type { ChannelDto } from '../../../src/routes/notifications/model'
import { api, errorText, ok } from './api'
import { formatDate } from './format'
import { ConfirmDialog, notify } from './ui'
import { useLoad } from './use-api'
import { TableHead } from './table-head'
import { type MessageKey, t, tx } from './i18n'

type Kind = ChannelDto['kind']

/** Each kind as the form offers it: its name, what to paste, and an example. */
const KINDS: Record<Kind, { name: string; label: MessageKey; example: string; inputMode: 'email' | 'url' }> = {
  email: { name: 'Email', label: 'ntf.target.email', example: 'you@example.com', inputMode: 'email' },
  ntfy: { name: 'ntfy', label: 'ntf.target.ntfy', example: 'https://ntfy.sh/your-topic', inputMode: 'url' },
  gotify: {
    name: 'Gotify',
    label: 'ntf.target.gotify',
    example: 'https://gotify.example.com/message?token=…',
    inputMode: 'url',
  },
  slack: { name: 'Slack', label: 'ntf.target.slack', example: 'https://hooks.slack.com/services/…', inputMode: 'url' },
  discord: { name: 'Discord', label: 'ntf.target.discord', example: 'https://discord.com/api/webhooks/…', inputMode: 'url' },
  matrix: {
    name: 'Matrix',
    label: 'ntf.target.matrix',
    example: 'https://matrix.example.com/_matrix/client/v3/rooms/!room:example.com/send/m.room.message?access_token=…',
    inputMode: 'url',
  },
}
/** A channel's kind as the page names it: the services by their own names, mail in the page's language. */
const kindName = (kind: Kind) => (kind === 'email' ? t('ntf.kind.email') : KINDS[kind].name)

function AddChannel(props: { onAdded: (channel: ChannelDto) => void }) {
  const [kind, setKind] = useState<Kind>('email')
  const [target, setTarget] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError('')
    try {
      const { data } = await ok(api.api.notifications.channels.post({ kind, target: target.trim() }))
      setTarget('')
      props.onAdded(data)
    } catch (failure) {
      setError(errorText(failure, t('ntf.notAdded')))
    } finally {
      setBusy(false)
    }
  }
  const chosen = KINDS[kind]
  return (
    <form class="channel-form" onSubmit={submit} aria-labelledby="new-channel-heading">
      <h2 id="new-channel-heading">{t('ntf.new')}</h2>
      <div class="row wrap">
        <div class="field">
          <label for="channel-kind">{t('ntf.where')}</label>
          <select id="channel-kind" value={kind} onChange={(event) => setKind(event.currentTarget.value as Kind)}>
            {(Object.keys(KINDS) as Kind[]).map((value) => (
              <option key={value} value={value}>
                {kindName(value)}
              </option>
            ))}
          </select>
        </div>
        <div class="field grow">
          <label for="channel-target">{t(chosen.label)}</label>
          <input
            id="channel-target"
            type="text"
            inputMode={chosen.inputMode}
            spellcheck={false}
            required
            placeholder={chosen.example}
            value={target}
            aria-describedby="channel-target-hint"
            onInput={(event) => setTarget(event.currentTarget.value)}
          />
          <span id="channel-target-hint" class="hint">
            {kind === 'email' ? t('ntf.emailHint') : t('ntf.urlHint', { setting: 'PDFSHARE_WEBHOOK_ALLOW_PRIVATE=1' })}
          </span>
        </div>
      </div>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || !target.trim()}>
        {busy ? t('teams.adding') : t('ntf.add')}
      </button>
    </form>
  )
}

/**
 * Where you are told of your readers: channels (email, ntfy, Gotify, Slack, Discord, Matrix), a test message
 * for each, and the log of what was sent. Each link says whether and how often (its "Tell me" setting).
 */
export function NotificationsPage() {
  const channels = useLoad(() => ok(api.api.notifications.channels.get()), [], { failure: t('ntf.channelsFailed') })
  const log = useLoad(() => ok(api.api.notifications.deliveries.get({ query: { limit: 50 } })), [], {
    failure: t('ntf.deliveriesFailed'),
  })
  const [deleting, setDeleting] = useState<ChannelDto | null>(null)
  const test = async (channel: ChannelDto) => {
    try {
      await ok(api.api.notifications.channels({ id: channel.id }).test.post())
      notify('ok', t('ntf.testQueued', { target: channel.target }))
      setTimeout(() => void log.reload(), 1500)
    } catch (failure) {
      notify('error', errorText(failure, t('ntf.testFailed')))
    }
  }
  const remove = async (channel: ChannelDto) => {
    setDeleting(null)
    try {
      await ok(api.api.notifications.channels({ id: channel.id }).delete())
      channels.set((current) => current?.filter((each) => each.id !== channel.id) ?? null)
      notify('ok', t('ntf.deleted', { target: channel.target }))
    } catch (failure) {
      notify('error', errorText(failure, t('ntf.notDeleted')))
    }
  }
  return (
    <main class="notifications">
      <h1>{t('title.notifications')}</h1>
      <p>{t('ntf.intro')}</p>
      <section class="card">
        <AddChannel
          onAdded={(channel) => {
            channels.set((current) => [...(current ?? []), channel])
            notify('ok', t('ntf.added', { target: channel.target }))
          }}
        />
      </section>
      <section aria-labelledby="channels-heading">
        <h2 id="channels-heading">{t('ntf.yours')}</h2>
        {channels.error && (
          <p class="form-error" role="alert">
            {channels.error}
          </p>
        )}
        {channels.value && channels.value.length === 0 && <p class="hint">{t('ntf.none')}</p>}
        {channels.value && channels.value.length > 0 && (
          <ul class="channel-list">
            {channels.value.map((channel) => (
              <li key={channel.id} class="card">
                <h3>{tx('ntf.channel', { kind: kindName(channel.kind), target: <span class="channel-target">{channel.target}</span> })}</h3>
                <p class="sub">{t('ntf.addedOn', { date: formatDate(channel.createdAt) })}</p>
                <div class="row wrap">
                  <button type="button" onClick={() => test(channel)}>
                    {t('ntf.test')}
                    <span class="visually-hidden"> {t('ntf.to', { target: channel.target })}</span>
                  </button>
                  <button type="button" class="danger" onClick={() => setDeleting(channel)}>
                    {t('common.delete')}
                    <span class="visually-hidden"> {channel.target}</span>
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="sent-heading">
        <h2 id="sent-heading">{t('ntf.sent')}</h2>
        <button type="button" onClick={log.reload}>
          {t('an.refresh')}
        </button>
        {log.value && log.value.length === 0 && <p class="hint">{t('ntf.nothing')}</p>}
        {log.value && log.value.length > 0 && (
          <div class="table-wrap">
            <table class="deliveries-table">
              <caption class="visually-hidden">{t('ntf.caption')}</caption>
              <TableHead columns={[t('visits.col.when'), t('ntf.where'), t('ntf.col.message'), t('ntf.col.status')]} />
              <tbody>
                {log.value.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>
                      <time dateTime={delivery.createdAt}>{formatDate(delivery.createdAt)}</time>
                    </td>
                    <td data-label={t('ntf.where')}>{kindName(delivery.kind)}</td>
                    <td data-label={t('ntf.col.message')}>{delivery.title}</td>
                    <td data-label={t('ntf.col.status')}>
                      {t('ntf.status', { status: delivery.status })}
                      {delivery.lastError && ` (${delivery.lastError})`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title={t('ntf.confirm', { target: deleting?.target ?? t('ntf.theChannel') })}
        confirm={t('ntf.delete')}
        danger
        onConfirm={() => deleting && remove(deleting)}
        onClose={() => setDeleting(null)}
      >
        <p>{t('ntf.deleteText')}</p>
      </ConfirmDialog>
    </main>
  )
}
