import type { Config } from '../config'
import type { BlobStore } from '../storage/blob-store'
import { createLocalBlobStore } from '../storage/local-blob-store'
import { createS3BlobStore } from '../storage/s3-blob-store'
import type { DataDirLayout } from './layout'

/**
 * The blob store of a data dir, or of a folder laid out like one (a backup being written, a restore's
 * staging dir): blobs in `blobs/`, streamed puts written in `tmp/` first (swept at start), orphans moved
 * to `orphans/`.
 */
export function blobStoreOf(layout: DataDirLayout): BlobStore {
  return createLocalBlobStore({ root: layout.blobs, tempDir: layout.tmp, asideDir: layout.orphans })
}

type StorageSettings = Pick<
  Config,
  'storage' | 's3Endpoint' | 's3Bucket' | 's3Region' | 's3AccessKeyId' | 's3SecretAccessKey' | 's3PathStyle'
>

/**
 * Where a running install keeps its PDFs, as PDFSHARE_STORAGE says: the data dir's own store, or an
 * S3-compatible bucket (the data dir then still holds tmp/, where uploads land and previews render from).
 */
export function configuredBlobStore(layout: DataDirLayout, settings: StorageSettings): BlobStore {
  if (settings.storage === 'local') return blobStoreOf(layout)
  const { s3Endpoint, s3Bucket, s3AccessKeyId, s3SecretAccessKey } = settings
  // loadConfig refuses storage=s3 without these; the check keeps a hand-built Config honest too.
  if (!s3Endpoint || !s3Bucket || !s3AccessKeyId || !s3SecretAccessKey) throw new Error('S3 storage needs an endpoint, a bucket and keys')
  const client = new Bun.S3Client({
    endpoint: s3Endpoint,
    bucket: s3Bucket,
    region: settings.s3Region,
    accessKeyId: s3AccessKeyId,
    secretAccessKey: s3SecretAccessKey,
    virtualHostedStyle: !settings.s3PathStyle,
  })
  return createS3BlobStore({ client, tempDir: layout.tmp })
}
