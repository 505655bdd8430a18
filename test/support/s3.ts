import { createClient } from '@libsql/client'
import { join } from 'node:path'

export { s3SettingsOf } from '../../scripts/support/ceph'

/** Every PDF an embedded install's database records: the files' current ones (versionId null) and the kept versions. */
export async function recordedRowsIn(dataDir: string) {
  const client = createClient({ url: `file:${join(dataDir, 'pdfshare.db')}` })
  try {
    const result = await client.execute(
      'SELECT id AS file_id, NULL AS version_id, blob_key, sha256 FROM files UNION ALL SELECT file_id, id, blob_key, sha256 FROM file_versions',
    )
    return result.rows.map((row) => ({
      fileId: String(row.file_id),
      versionId: row.version_id === null ? null : String(row.version_id),
      blobKey: String(row.blob_key),
      sha256: String(row.sha256),
    }))
  } finally {
    client.close()
  }
}
