import { useRef, useState } from 'preact/hooks'
import type { FileDto, VersionDto } from '../../../src/routes/files/model'
import { api, download, errorText, ok } from './api'
import { formatBytes, formatDate } from './format'
import { ConfirmDialog, notify } from './ui'
import { useLoad } from './use-api'
import { TableHead } from './table-head'
import { t } from './i18n'

/** How a version is called in button names and confirmations: when it was uploaded. */
const versionName = (version: VersionDto) => t('versions.name', { date: formatDate(version.uploadedAt) })

type Pending = { action: 'restore' | 'delete'; version: VersionDto }

/**
 * The file's PDFs over time: the current one first, then those it replaced (as many as the server keeps).
 * Any of them can be downloaded; an older one can be made current again (restore) or deleted. `revision`
 * changes when the current PDF changed elsewhere on the page (a replacement), so the list is read again.
 */
export function VersionsPanel(props: { fileId: string; revision: string; onRestored: (file: FileDto) => void }) {
  const list = useLoad(() => ok(api.api.files({ id: props.fileId }).versions.get()), [props.fileId, props.revision], {
    failure: t('versions.loadFailed'),
  })
  const { value: versions, error: loadError } = list
  const [pending, setPending] = useState<Pending | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const base = `/files/${props.fileId}/versions`

  const get = async (version: VersionDto) => {
    try {
      await download(`${base}/${version.id}/content`, version.filename)
    } catch (failure) {
      notify('error', errorText(failure, t('versions.downloadFailed')))
    }
  }

  const confirmed = async ({ action, version }: Pending) => {
    setPending(null)
    try {
      if (action === 'restore') {
        const { data } = await ok(api.api.files({ id: props.fileId }).versions({ versionId: version.id }).restore.post())
        props.onRestored(data)
        notify('ok', t('versions.restored', { name: versionName(version) }))
      } else {
        await ok(api.api.files({ id: props.fileId }).versions({ versionId: version.id }).delete())
        notify('ok', t('versions.deleted', { name: versionName(version) }))
      }
    } catch (failure) {
      notify('error', errorText(failure, action === 'restore' ? t('versions.notRestored') : t('versions.notDeleted')))
    }
    await list.reload()
    heading.current?.focus()
  }

  return (
    <section class="card versions" aria-labelledby="versions-heading">
      <h2 id="versions-heading" ref={heading} tabIndex={-1}>
        {t('versions.heading')}
      </h2>
      {loadError && (
        <p class="form-error" role="alert">
          {loadError}
        </p>
      )}
      {versions === null && !loadError && <p aria-busy="true">{t('versions.loading')}</p>}
      {versions && versions.length <= 1 && <p class="hint">{t('versions.only')}</p>}
      {versions && versions.length > 0 && (
        <div class="table-wrap">
          <table>
            <TableHead
              columns={[t('versions.col.uploaded'), t('files.col.file'), t('files.col.size'), 'SHA-256']}
              unnamed={t('common.actions')}
            />
            <tbody>
              {versions.map((version) => {
                const name = versionName(version)
                return (
                  <tr key={version.id} class={version.current ? 'version-current' : undefined}>
                    <td>
                      {formatDate(version.uploadedAt)}
                      {version.current && <span class="badge">{t('versions.current')}</span>}
                    </td>
                    <td data-label={t('files.col.file')} class="version-file">
                      {version.filename}
                    </td>
                    <td data-label={t('files.col.size')}>{formatBytes(version.fileSize)}</td>
                    <td data-label="SHA-256">
                      <code title={version.sha256}>{version.sha256.slice(0, 12)}</code>
                    </td>
                    <td data-label={t('common.actions')} class="version-actions">
                      <button type="button" onClick={() => get(version)}>
                        {t('versions.download')}
                        <span class="visually-hidden"> {name}</span>
                      </button>
                      {!version.current && (
                        <>
                          <button type="button" onClick={() => setPending({ action: 'restore', version })}>
                            {t('versions.restore')}
                            <span class="visually-hidden"> {name}</span>
                          </button>
                          <button type="button" class="danger" onClick={() => setPending({ action: 'delete', version })}>
                            {t('links.delete')}
                            <span class="visually-hidden"> {name}</span>
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={
          pending
            ? t(pending.action === 'restore' ? 'versions.confirmRestore' : 'versions.confirmDelete', { name: versionName(pending.version) })
            : ''
        }
        confirm={pending?.action === 'restore' ? t('versions.restoreButton') : t('versions.deleteButton')}
        danger={pending?.action === 'delete'}
        onConfirm={() => pending && confirmed(pending)}
        onClose={() => setPending(null)}
      >
        <p>{pending?.action === 'restore' ? t('versions.restoreText') : t('versions.deleteText')}</p>
      </ConfirmDialog>
    </section>
  )
}
