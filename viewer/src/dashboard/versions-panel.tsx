import { useRef, useState } from 'preact/hooks'
import type { FileDto, VersionDto } from '../../../src/routes/files/model'
import { api, download, errorText, ok } from './api'
import { formatBytes, formatDate } from './format'
import { ConfirmDialog, notify } from './ui'
import { useLoad } from './use-api'
import { TableHead } from './table-head'

/** How a version is called in button names and confirmations: when it was uploaded. */
const versionName = (version: VersionDto) => `the version of ${formatDate(version.uploadedAt)}`

type Pending = { action: 'restore' | 'delete'; version: VersionDto }

/**
 * The file's PDFs over time: the current one first, then those it replaced (as many as the server keeps).
 * Any of them can be downloaded; an older one can be made current again (restore) or deleted. `revision`
 * changes when the current PDF changed elsewhere on the page (a replacement), so the list is read again.
 */
export function VersionsPanel(props: { fileId: string; revision: string; onRestored: (file: FileDto) => void }) {
  const list = useLoad(() => ok(api.api.files({ id: props.fileId }).versions.get()), [props.fileId, props.revision], {
    failure: 'The versions could not be loaded',
  })
  const { value: versions, error: loadError } = list
  const [pending, setPending] = useState<Pending | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const base = `/files/${props.fileId}/versions`

  const get = async (version: VersionDto) => {
    try {
      await download(`${base}/${version.id}/content`, version.filename)
    } catch (failure) {
      notify('error', errorText(failure, 'The version could not be downloaded'))
    }
  }

  const confirmed = async ({ action, version }: Pending) => {
    setPending(null)
    try {
      if (action === 'restore') {
        const { data } = await ok(api.api.files({ id: props.fileId }).versions({ versionId: version.id }).restore.post())
        props.onRestored(data)
        notify('ok', `Restored ${versionName(version)}: readers get it at the same links`)
      } else {
        await ok(api.api.files({ id: props.fileId }).versions({ versionId: version.id }).delete())
        notify('ok', `Deleted ${versionName(version)}`)
      }
    } catch (failure) {
      notify('error', errorText(failure, action === 'restore' ? 'The version was not restored' : 'The version was not deleted'))
    }
    await list.reload()
    heading.current?.focus()
  }

  return (
    <section class="card versions" aria-labelledby="versions-heading">
      <h2 id="versions-heading" ref={heading} tabIndex={-1}>
        Versions
      </h2>
      {loadError && (
        <p class="form-error" role="alert">
          {loadError}
        </p>
      )}
      {versions === null && !loadError && <p aria-busy="true">Loading the versions…</p>}
      {versions && versions.length <= 1 && (
        <p class="hint">Only the current PDF so far. Replacing it keeps the one it replaces here, up to the number the server keeps.</p>
      )}
      {versions && versions.length > 0 && (
        <div class="table-wrap">
          <table>
            <TableHead columns={['Uploaded', 'File', 'Size', 'SHA-256']} unnamed="Actions" />
            <tbody>
              {versions.map((version) => {
                const name = versionName(version)
                return (
                  <tr key={version.id} class={version.current ? 'version-current' : undefined}>
                    <td>
                      {formatDate(version.uploadedAt)}
                      {version.current && <span class="badge">Current</span>}
                    </td>
                    <td data-label="File" class="version-file">
                      {version.filename}
                    </td>
                    <td data-label="Size">{formatBytes(version.fileSize)}</td>
                    <td data-label="SHA-256">
                      <code title={version.sha256}>{version.sha256.slice(0, 12)}</code>
                    </td>
                    <td data-label="Actions" class="version-actions">
                      <button type="button" onClick={() => get(version)}>
                        Download<span class="visually-hidden"> {name}</span>
                      </button>
                      {!version.current && (
                        <>
                          <button type="button" onClick={() => setPending({ action: 'restore', version })}>
                            Restore…<span class="visually-hidden"> {name}</span>
                          </button>
                          <button type="button" class="danger" onClick={() => setPending({ action: 'delete', version })}>
                            Delete…<span class="visually-hidden"> {name}</span>
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
        title={pending ? `${pending.action === 'restore' ? 'Restore' : 'Delete'} ${versionName(pending.version)}?` : ''}
        confirm={pending?.action === 'restore' ? 'Restore' : 'Delete the version'}
        danger={pending?.action === 'delete'}
        onConfirm={() => pending && confirmed(pending)}
        onClose={() => setPending(null)}
      >
        <p>
          {pending?.action === 'restore'
            ? 'Readers get this PDF again, at the same links. The current PDF is kept as a previous version.'
            : 'This PDF is gone for good. The current PDF and the links stay.'}
        </p>
      </ConfirmDialog>
    </section>
  )
}
