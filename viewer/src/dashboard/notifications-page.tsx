import { useState } from 'preact/hooks'
import type { ChannelDto, NotificationDeliveryDto } from '../../../src/routes/notifications/model'
import { api, errorText, ok } from './api'
import { formatDate } from './format'
import { ConfirmDialog, notify } from './ui'
import { useLoad } from './use-api'
import { TableHead } from './table-head'

type Kind = ChannelDto['kind']

/** Each kind as the form offers it: its name, what to paste, and an example. */
const KINDS: Record<Kind, { name: string; label: string; example: string; inputMode: 'email' | 'url' }> = {
  email: { name: 'Email', label: 'Email address', example: 'you@example.com', inputMode: 'email' },
  ntfy: { name: 'ntfy', label: 'Topic URL', example: 'https://ntfy.sh/your-topic', inputMode: 'url' },
  gotify: {
    name: 'Gotify',
    label: 'Message URL with the app token',
    example: 'https://gotify.example.com/message?token=…',
    inputMode: 'url',
  },
  slack: { name: 'Slack', label: 'Incoming webhook URL', example: 'https://hooks.slack.com/services/…', inputMode: 'url' },
  discord: { name: 'Discord', label: 'Webhook URL', example: 'https://discord.com/api/webhooks/…', inputMode: 'url' },
  matrix: {
    name: 'Matrix',
    label: 'Room send URL with an access token',
    example: 'https://matrix.example.com/_matrix/client/v3/rooms/!room:example.com/send/m.room.message?access_token=…',
    inputMode: 'url',
  },
}
const STATUS_TEXT: Record<NotificationDeliveryDto['status'], string> = {
  pending: 'Waiting to retry',
  delivered: 'Delivered',
  failed: 'Failed',
}

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
      setError(errorText(failure, 'The channel was not added'))
    } finally {
      setBusy(false)
    }
  }
  const chosen = KINDS[kind]
  return (
    <form class="channel-form" onSubmit={submit} aria-labelledby="new-channel-heading">
      <h2 id="new-channel-heading">New channel</h2>
      <div class="row wrap">
        <div class="field">
          <label for="channel-kind">Where</label>
          <select id="channel-kind" value={kind} onChange={(event) => setKind(event.currentTarget.value as Kind)}>
            {Object.entries(KINDS).map(([value, { name }]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div class="field grow">
          <label for="channel-target">{chosen.label}</label>
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
            {kind === 'email'
              ? 'Needs the server to send mail.'
              : 'The URL is a secret: after saving, only its start is shown. Addresses on the local network need PDFSHARE_WEBHOOK_ALLOW_PRIVATE=1.'}
          </span>
        </div>
      </div>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || !target.trim()}>
        {busy ? 'Adding…' : 'Add the channel'}
      </button>
    </form>
  )
}

/**
 * Where you are told of your readers: channels (email, ntfy, Gotify, Slack, Discord, Matrix), a test message
 * for each, and the log of what was sent. Each link says whether and how often (its "Tell me" setting).
 */
export function NotificationsPage() {
  const channels = useLoad(() => ok(api.api.notifications.channels.get()), [], { failure: 'The channels could not be loaded' })
  const log = useLoad(() => ok(api.api.notifications.deliveries.get({ query: { limit: 50 } })), [], {
    failure: 'The deliveries could not be loaded',
  })
  const [deleting, setDeleting] = useState<ChannelDto | null>(null)
  const test = async (channel: ChannelDto) => {
    try {
      await ok(api.api.notifications.channels({ id: channel.id }).test.post())
      notify('ok', `Test message queued for ${channel.target}`)
      setTimeout(() => void log.reload(), 1500)
    } catch (failure) {
      notify('error', errorText(failure, 'The test message was not sent'))
    }
  }
  const remove = async (channel: ChannelDto) => {
    setDeleting(null)
    try {
      await ok(api.api.notifications.channels({ id: channel.id }).delete())
      channels.set((current) => current?.filter((each) => each.id !== channel.id) ?? null)
      notify('ok', `Channel ${channel.target} deleted`)
    } catch (failure) {
      notify('error', errorText(failure, 'The channel was not deleted'))
    }
  }
  return (
    <main class="notifications">
      <h1>Notifications</h1>
      <p>
        Be told when someone new opens one of your links, downloads a PDF or accepts a link’s agreement: by mail, or in ntfy, Gotify, Slack,
        Discord or Matrix. Each link says whether you are told at once, in an hourly or daily digest, or not at all (at most 10 messages a
        link and hour; the rest come in one digest).
      </p>
      <section class="card">
        <AddChannel
          onAdded={(channel) => {
            channels.set((current) => [...(current ?? []), channel])
            notify('ok', `Channel ${channel.target} added`)
          }}
        />
      </section>
      <section aria-labelledby="channels-heading">
        <h2 id="channels-heading">Your channels</h2>
        {channels.error && (
          <p class="form-error" role="alert">
            {channels.error}
          </p>
        )}
        {channels.value && channels.value.length === 0 && <p class="hint">No channels yet: nobody is told of your readers.</p>}
        {channels.value && channels.value.length > 0 && (
          <ul class="channel-list">
            {channels.value.map((channel) => (
              <li key={channel.id} class="card">
                <h3>
                  {KINDS[channel.kind].name}: <span class="channel-target">{channel.target}</span>
                </h3>
                <p class="sub">added {formatDate(channel.createdAt)}</p>
                <div class="row wrap">
                  <button type="button" onClick={() => test(channel)}>
                    Send a test message<span class="visually-hidden"> to {channel.target}</span>
                  </button>
                  <button type="button" class="danger" onClick={() => setDeleting(channel)}>
                    Delete<span class="visually-hidden"> {channel.target}</span>
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="sent-heading">
        <h2 id="sent-heading">Sent</h2>
        <button type="button" onClick={log.reload}>
          Refresh
        </button>
        {log.value && log.value.length === 0 && <p class="hint">Nothing sent yet.</p>}
        {log.value && log.value.length > 0 && (
          <div class="table-wrap">
            <table class="deliveries-table">
              <caption class="visually-hidden">Notifications sent, newest first</caption>
              <TableHead columns={['When', 'Where', 'Message', 'Status']} />
              <tbody>
                {log.value.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>
                      <time dateTime={delivery.createdAt}>{formatDate(delivery.createdAt)}</time>
                    </td>
                    <td data-label="Where">{KINDS[delivery.kind].name}</td>
                    <td data-label="Message">{delivery.title}</td>
                    <td data-label="Status">
                      {STATUS_TEXT[delivery.status]}
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
        title={`Delete ${deleting?.target ?? 'the channel'}?`}
        confirm="Delete the channel"
        danger
        onConfirm={() => deleting && remove(deleting)}
        onClose={() => setDeleting(null)}
      >
        <p>Nothing more is sent there. Its log goes with it.</p>
      </ConfirmDialog>
    </main>
  )
}
