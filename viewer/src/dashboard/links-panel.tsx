import { useEffect, useRef, useState } from 'preact/hooks'
import type { LinkBody, LinkDto, LinkState } from '../../../src/routes/links/model'
import { api, errorText, ok } from './api'
import { formatDate } from './format'
import { EmbedCode } from './link-embed'
import { LinkForm } from './link-form'
import { QrCode } from './qr-code'
import { ConfirmDialog, copyWithNotice, notify } from './ui'
import { useLoad } from './use-api'
import { session } from './session'

const STATE_TEXT: Record<LinkState, string> = {
  active: 'Active',
  disabled: 'Turned off',
  expired: 'Expired',
  used_up: 'Used up',
}

/** How a link is called on the page and in button names: its label, else what sets it apart. */
export const linkName = (link: LinkDto) => link.label || (link.isDefault ? 'Default link' : `Link of ${formatDate(link.createdAt)}`)

/** A visible verb, and the link's name for screen readers, so ten "Copy" buttons are told apart. */
function Named(props: { verb: string; name: string }) {
  return (
    <>
      {props.verb}
      <span class="visually-hidden"> {props.name}</span>
    </>
  )
}

function Lock() {
  return (
    <svg class="lock-icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M4.5 7V5a3.5 3.5 0 0 1 7 0v2h.5a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1zm1.5 0h4V5a2 2 0 0 0-4 0z" />
    </svg>
  )
}

const ACCESS_TEXT = { email: 'readers give their email', 'verified-email': 'readers confirm their email by code' } as const
const listsText = (link: LinkDto) =>
  [link.allow.length > 0 && `only ${link.allow.join(', ')}`, link.deny.length > 0 && `never ${link.deny.join(', ')}`]
    .filter(Boolean)
    .join('; ')

/** Whose links the panel shows: a file's or a room's (docs/rooms.md); both are the same Link resource. */
export type LinksOf = { fileId: string } | { roomId: string }

/** The two routes that differ between a file's links and a room's: the list and the creation. */
const linksRoutes = (of: LinksOf) =>
  'fileId' in of
    ? {
        list: () => ok(api.api.files({ id: of.fileId }).links.get()),
        create: (input: LinkBody) => ok(api.api.files({ id: of.fileId }).links.post(input)),
      }
    : {
        list: () => ok(api.api.rooms({ id: of.roomId }).links.get()),
        create: (input: LinkBody) => ok(api.api.rooms({ id: of.roomId }).links.post(input)),
      }

/**
 * A file's or a room's share links: the default one (its shareUrl) and any others, each with its own password,
 * expiry, view limit and switches; they are changed and deleted through /api/links/:linkId either way.
 * `revision` changes when the file changed elsewhere on the page (its switches are the default link's), so the
 * list is read again.
 */
export function LinksPanel(props: { of: LinksOf; revision?: string; onDefaultChanged?: () => void }) {
  const routes = linksRoutes(props.of)
  const mayChange = session.mayChange()
  const ownerId = 'fileId' in props.of ? props.of.fileId : props.of.roomId
  const list = useLoad(routes.list, [ownerId, props.revision], {
    failure: 'The links could not be loaded',
  })
  const { value: links, error: loadError, set: setLinks } = list
  const [creating, setCreating] = useState(false)
  const [editing, setEditing] = useState<string | null>(null)
  const [qr, setQr] = useState<string | null>(null)
  const [embedding, setEmbedding] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<LinkDto | null>(null)
  /** Where the focus goes once the list has been drawn again after an action (an element id). */
  const focusNext = useRef<string | null>(null)

  useEffect(() => {
    if (!focusNext.current) return
    document.getElementById(focusNext.current)?.focus()
    focusNext.current = null
  })

  /** Puts a changed link in the list; the default link's switches are the file's, so the page reads the file again. */
  const replaced = (link: LinkDto) => {
    setLinks((current) => current?.map((each) => (each.id === link.id ? link : each)) ?? null)
    if (link.isDefault) props.onDefaultChanged?.()
  }

  const create = async (input: LinkBody) => {
    const { data } = await routes.create(input)
    setCreating(false)
    setLinks((current) => [...(current ?? []), data])
    focusNext.current = `link-${data.id}`
    notify('ok', `${linkName(data)} created: ${data.url}`)
  }

  const edit = (link: LinkDto) => async (input: LinkBody) => {
    const { data } = await ok(api.api.links({ linkId: link.id }).patch(input))
    setEditing(null)
    replaced(data)
    focusNext.current = `link-edit-${link.id}`
    notify('ok', `${linkName(data)} saved`)
  }

  const toggle = async (link: LinkDto) => {
    try {
      const { data } = await ok(api.api.links({ linkId: link.id }).patch({ disabled: !link.disabled }))
      replaced(data)
      notify('ok', `${linkName(data)} turned ${data.disabled ? 'off: readers get a “turned off” page' : 'on'}`)
    } catch (failure) {
      notify('error', errorText(failure, 'The link was not changed'))
    }
  }

  const remove = async (link: LinkDto) => {
    try {
      await ok(api.api.links({ linkId: link.id }).delete())
      setDeleting(null)
      setLinks((current) => current?.filter((each) => each.id !== link.id) ?? null)
      focusNext.current = 'links-heading'
      notify('ok', `${linkName(link)} deleted`)
    } catch (failure) {
      setDeleting(null)
      notify('error', errorText(failure, 'The link was not deleted'))
    }
  }

  return (
    <section class="card links" aria-labelledby="links-heading">
      <h2 id="links-heading" tabIndex={-1}>
        Links
      </h2>
      <p class="hint">
        Give each audience its own link: with a password, an expiry or a view limit, and turn it off on its own. Every link shows the same{' '}
        {'fileId' in props.of ? 'PDF' : 'documents, and its gates are passed once for the whole room'}.
      </p>
      {loadError && (
        <p class="form-error" role="alert">
          {loadError}
        </p>
      )}
      {links === null && !loadError && <p aria-busy="true">Loading the links…</p>}
      {links && (
        <ul class="link-list">
          {links.map((link) => {
            const name = linkName(link)
            return (
              <li key={link.id} class={`link-item link-${link.state}`} aria-labelledby={`link-${link.id}`}>
                <div class="link-head">
                  <h3 id={`link-${link.id}`} tabIndex={-1}>
                    {name}
                  </h3>
                  <span class={`state state-${link.state}`}>{STATE_TEXT[link.state]}</span>
                  {link.hasPassword && (
                    <span class="lock">
                      <Lock />
                      Password
                    </span>
                  )}
                </div>
                <p class="link-url">
                  <a href={link.url} target="_blank" rel="noopener">
                    {link.url}
                  </a>
                </p>
                <p class="sub">
                  {link.views} {link.views === 1 ? 'view' : 'views'}
                  {link.maxViews !== null && ` of ${link.maxViews}`} ·{' '}
                  {link.expiresAt ? `${link.state === 'expired' ? 'expired' : 'expires'} ${formatDate(link.expiresAt)}` : 'never expires'} ·{' '}
                  {link.allowDownload ? 'download allowed' : 'no download'}
                  {link.searchEngineVisible && ' · search engines may index it'}
                  {link.access !== 'open' && ` · ${ACCESS_TEXT[link.access]}`}
                  {(link.allow.length > 0 || link.deny.length > 0) && ` (${listsText(link)})`}
                  {link.agreement !== null && ' · agreement first'}
                  {link.watermark !== null && ' · watermarked'}
                  {link.embedOrigins.length > 0 &&
                    ` · framed on ${link.embedOrigins.length === 1 ? link.embedOrigins[0] : `${link.embedOrigins.length} sites`}`}
                </p>
                <div class="row wrap link-actions">
                  <button type="button" onClick={() => copyWithNotice(link.url, 'link')}>
                    <Named verb="Copy" name={`the URL of ${name}`} />
                  </button>
                  <button
                    type="button"
                    aria-expanded={qr === link.id}
                    aria-controls={`link-qr-${link.id}`}
                    onClick={() => setQr(qr === link.id ? null : link.id)}
                  >
                    <Named verb="QR code" name={`of ${name}`} />
                  </button>
                  <button
                    type="button"
                    aria-expanded={embedding === link.id}
                    aria-controls={`link-embed-${link.id}`}
                    onClick={() => setEmbedding(embedding === link.id ? null : link.id)}
                  >
                    <Named verb="Embed" name={name} />
                  </button>
                  {mayChange && (
                    <>
                      <button
                        type="button"
                        id={`link-edit-${link.id}`}
                        aria-expanded={editing === link.id}
                        onClick={() => setEditing(editing === link.id ? null : link.id)}
                      >
                        <Named verb="Edit" name={name} />
                      </button>
                      <button type="button" onClick={() => toggle(link)}>
                        <Named verb={link.disabled ? 'Turn on' : 'Turn off'} name={name} />
                      </button>
                      {!link.isDefault && (
                        <button type="button" class="danger" onClick={() => setDeleting(link)}>
                          <Named verb="Delete…" name={name} />
                        </button>
                      )}
                    </>
                  )}
                </div>
                <div id={`link-qr-${link.id}`} hidden={qr !== link.id}>
                  {qr === link.id && <QrCode text={link.url} label={`QR code of ${name}`} />}
                </div>
                <div id={`link-embed-${link.id}`} hidden={embedding !== link.id}>
                  {embedding === link.id && <EmbedCode link={link} name={name} />}
                </div>
                {editing === link.id && (
                  <LinkForm
                    idPrefix={`edit-${link.id}`}
                    link={link}
                    submitLabel="Save the link"
                    onSubmit={edit(link)}
                    onCancel={() => {
                      setEditing(null)
                      focusNext.current = `link-edit-${link.id}`
                    }}
                  />
                )}
              </li>
            )
          })}
        </ul>
      )}
      {creating ? (
        <div class="new-link">
          <h3>New link</h3>
          <LinkForm
            idPrefix="new-link"
            submitLabel="Create the link"
            onSubmit={create}
            onCancel={() => {
              setCreating(false)
              focusNext.current = 'new-link-button'
            }}
          />
        </div>
      ) : (
        mayChange && (
          <button type="button" id="new-link-button" class="primary" onClick={() => setCreating(true)}>
            New link…
          </button>
        )
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting ? linkName(deleting) : 'the link'}?`}
        confirm="Delete the link"
        danger
        onConfirm={() => deleting && remove(deleting)}
        onClose={() => setDeleting(null)}
      >
        <p>
          Its address stops working at once and its view count is gone. The {'fileId' in props.of ? 'file' : 'room'} and its other links
          stay.
        </p>
      </ConfirmDialog>
    </section>
  )
}
