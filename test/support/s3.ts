import { createClient } from '@libsql/client'
import { join } from 'node:path'
import type { CephGateway } from '../../scripts/support/ceph'

/** The PDFSHARE_S3_* settings for `bucket` on the test gateway (without PDFSHARE_STORAGE). */
export function s3SettingsOf(gateway: CephGateway, bucket: string): Record<string, string> {
  return {
    PDFSHARE_S3_ENDPOINT: gateway.endpoint,
    PDFSHARE_S3_BUCKET: bucket,
    PDFSHARE_S3_REGION: gateway.region,
    PDFSHARE_S3_ACCESS_KEY_ID: gateway.accessKeyId,
    PDFSHARE_S3_SECRET_ACCESS_KEY: gateway.secretAccessKey,
  }
}

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
