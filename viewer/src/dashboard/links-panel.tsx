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
import { type MessageKey, t } from './i18n'

const STATE_TEXT: Record<LinkState, MessageKey> = {
  active: 'link.state.active',
  disabled: 'link.state.disabled',
  expired: 'link.state.expired',
  used_up: 'link.state.used_up',
}

/** How a link is called on the page and in button names: its label, else what sets it apart. */
export const linkName = (link: LinkDto) =>
  link.label || (link.isDefault ? t('link.default') : t('link.of', { date: formatDate(link.createdAt) }))

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

const ACCESS_TEXT = { email: 'link.access.email', 'verified-email': 'link.access.verified' } as const
const listsText = (link: LinkDto) =>
  [
    link.allow.length > 0 && t('link.only', { list: link.allow.join(', ') }),
    link.deny.length > 0 && t('link.never', { list: link.deny.join(', ') }),
  ]
    .filter(Boolean)
    .join('; ')

/** A link's settings in one line: "3 views of 10 · expires … · no download · readers give their email (only …)". */
function factsOf(link: LinkDto): string {
  const views =
    link.maxViews === null ? t('links.views', { views: link.views }) : t('links.viewsOf', { views: link.views, max: link.maxViews })
  const expiry = link.expiresAt
    ? t(link.state === 'expired' ? 'links.expiredOn' : 'links.expiresOn', { date: formatDate(link.expiresAt) })
    : t('links.neverExpires')
  const lists = link.allow.length > 0 || link.deny.length > 0 ? ` (${listsText(link)})` : ''
  const framed =
    link.embedOrigins.length === 1
      ? t('links.framedOn', { site: link.embedOrigins[0]! })
      : link.embedOrigins.length > 1 && t('links.framedOnSites', { count: link.embedOrigins.length })
  return [
    views,
    expiry,
    t(link.allowDownload ? 'links.download' : 'links.noDownload'),
    link.searchEngineVisible && t('links.indexed'),
    link.access !== 'open' && t(ACCESS_TEXT[link.access]) + lists,
    link.access === 'open' && lists && lists.trim(),
    link.agreement !== null && t('links.agreement'),
    link.watermark !== null && t('links.watermarked'),
    framed,
  ]
    .filter(Boolean)
    .join(' · ')
}

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
    failure: t('links.loadFailed'),
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
    notify('ok', t('links.created', { name: linkName(data), url: data.url }))
  }

  const edit = (link: LinkDto) => async (input: LinkBody) => {
    const { data } = await ok(api.api.links({ linkId: link.id }).patch(input))
    setEditing(null)
    replaced(data)
    focusNext.current = `link-edit-${link.id}`
    notify('ok', t('links.saved', { name: linkName(data) }))
  }

  const toggle = async (link: LinkDto) => {
    try {
      const { data } = await ok(api.api.links({ linkId: link.id }).patch({ disabled: !link.disabled }))
      replaced(data)
      notify('ok', t('links.turned', { name: linkName(data), off: data.disabled ? 'yes' : 'no' }))
    } catch (failure) {
      notify('error', errorText(failure, t('links.notChanged')))
    }
  }

  const remove = async (link: LinkDto) => {
    try {
      await ok(api.api.links({ linkId: link.id }).delete())
      setDeleting(null)
      setLinks((current) => current?.filter((each) => each.id !== link.id) ?? null)
      focusNext.current = 'links-heading'
      notify('ok', t('links.deleted', { name: linkName(link) }))
    } catch (failure) {
      setDeleting(null)
      notify('error', errorText(failure, t('links.notDeleted')))
    }
  }

  return (
    <section class="card links" aria-labelledby="links-heading">
      <h2 id="links-heading" tabIndex={-1}>
        {t('links.heading')}
      </h2>
      <p class="hint">{t('links.hint', { of: 'fileId' in props.of ? 'file' : 'room' })}</p>
      {loadError && (
        <p class="form-error" role="alert">
          {loadError}
        </p>
      )}
      {links === null && !loadError && <p aria-busy="true">{t('links.loading')}</p>}
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
                  <span class={`state state-${link.state}`}>{t(STATE_TEXT[link.state])}</span>
                  {link.hasPassword && (
                    <span class="lock">
                      <Lock />
                      {t('links.password')}
                    </span>
                  )}
                </div>
                <p class="link-url">
                  <a href={link.url} target="_blank" rel="noopener">
                    {link.url}
                  </a>
                </p>
                <p class="sub">{factsOf(link)}</p>
                <div class="row wrap link-actions">
                  <button type="button" onClick={() => copyWithNotice(link.url, 'link')}>
                    <Named verb={t('links.copy')} name={t('links.copyName', { name })} />
                  </button>
                  <button
                    type="button"
                    aria-expanded={qr === link.id}
                    aria-controls={`link-qr-${link.id}`}
                    onClick={() => setQr(qr === link.id ? null : link.id)}
                  >
                    <Named verb={t('links.qr')} name={t('links.qrName', { name })} />
                  </button>
                  <button
                    type="button"
                    aria-expanded={embedding === link.id}
                    aria-controls={`link-embed-${link.id}`}
                    onClick={() => setEmbedding(embedding === link.id ? null : link.id)}
                  >
                    <Named verb={t('links.embed')} name={name} />
                  </button>
                  {mayChange && (
                    <>
                      <button
                        type="button"
                        id={`link-edit-${link.id}`}
                        aria-expanded={editing === link.id}
                        onClick={() => setEditing(editing === link.id ? null : link.id)}
                      >
                        <Named verb={t('links.edit')} name={name} />
                      </button>
                      <button type="button" onClick={() => toggle(link)}>
                        <Named verb={link.disabled ? t('links.turnOn') : t('links.turnOff')} name={name} />
                      </button>
                      {!link.isDefault && (
                        <button type="button" class="danger" onClick={() => setDeleting(link)}>
                          <Named verb={t('links.delete')} name={name} />
                        </button>
                      )}
                    </>
                  )}
                </div>
                <div id={`link-qr-${link.id}`} hidden={qr !== link.id}>
                  {qr === link.id && <QrCode text={link.url} label={t('links.qrLabel', { name })} />}
                </div>
                <div id={`link-embed-${link.id}`} hidden={embedding !== link.id}>
                  {embedding === link.id && <EmbedCode link={link} name={name} />}
                </div>
                {editing === link.id && (
                  <LinkForm
                    idPrefix={`edit-${link.id}`}
                    link={link}
                    submitLabel={t('links.save')}
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
          <h3>{t('links.new')}</h3>
          <LinkForm
            idPrefix="new-link"
            submitLabel={t('links.create')}
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
            {t('links.newButton')}
          </button>
        )
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('links.confirmDelete', { name: deleting ? linkName(deleting) : t('links.theLink') })}
        confirm={t('links.deleteConfirm')}
        danger
        onConfirm={() => deleting && remove(deleting)}
        onClose={() => setDeleting(null)}
      >
        <p>{t('links.deleteText', { of: 'fileId' in props.of ? 'file' : 'room' })}</p>
      </ConfirmDialog>
    </section>
  )
}
