import type { S3Client } from 'bun'
import type { Config } from '../config'
import { type ObjectFolder, s3ObjectFolder } from '../storage/object-folder'
import { s3Requests } from '../storage/s3-requests'
import type { BlobStore } from '../storage/blob-store'
import { createLocalBlobStore } from '../storage/local-blob-store'
import { createS3BlobStore } from '../storage/s3-blob-store'
import type { DataDirLayout } from './layout'
import { dataDirIdHolder, type IdHolder } from './pairing'

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
> &
  Partial<Pick<Config, 's3CopiesSize' | 's3ConnectTimeout' | 's3IdleTimeout'>>

/**
 * Where a running install keeps its PDFs, as PDFSHARE_STORAGE says: the data dir's own store, or an
 * S3-compatible bucket (the data dir then still holds tmp/, where uploads land and previews render from).
 * `where` names it in messages; `idHolder` is where the install's id is kept besides the database
 * (pairing.ts): with the PDFs, so every instance in front of one bucket finds the same one.
 */
export function configuredBlobStore(layout: DataDirLayout, settings: StorageSettings): BlobStore {
  return configuredStorage(layout, settings).blobs
}

export function configuredStorage(
  layout: DataDirLayout,
  settings: StorageSettings,
): { blobs: BlobStore; where: string; idHolder: IdHolder; sharedPreviews?: ObjectFolder } {
  if (settings.storage === 'local') return { blobs: blobStoreOf(layout), where: layout.blobs, idHolder: dataDirIdHolder(layout) }
  const client = s3ClientOf(settings)
  const timeouts = { connectMs: (settings.s3ConnectTimeout ?? 5) * 1000, idleMs: (settings.s3IdleTimeout ?? 30) * 1000 }
  // The id and the cards go through the store's time limits as the PDFs do: a silent bucket never hangs a start.
  const requests = s3Requests(client, timeouts)
  return {
    blobs: createS3BlobStore({
      client,
      timeouts,
      tempDir: layout.tmp,
      copiesBytes: settings.s3CopiesSize ?? 0,
      copiesDir: layout.copies,
    }),
    where: `the bucket ${settings.s3Bucket}`,
    idHolder: bucketIdHolder(s3ObjectFolder(requests, ''), settings.s3Bucket!),
    // Link-preview cards beside the PDFs, so one instance's render serves them all.
    sharedPreviews: s3ObjectFolder(requests, 'previews/'),
  }
}

function s3ClientOf(settings: StorageSettings): S3Client {
  const { s3Endpoint, s3Bucket, s3AccessKeyId, s3SecretAccessKey } = settings
  // loadConfig refuses storage=s3 without these; the check keeps a hand-built Config honest too.
  if (!s3Endpoint || !s3Bucket || !s3AccessKeyId || !s3SecretAccessKey) throw new Error('S3 storage needs an endpoint, a bucket and keys')
  return new Bun.S3Client({
    endpoint: s3Endpoint,
    bucket: s3Bucket,
    region: settings.s3Region,
    accessKeyId: s3AccessKeyId,
    secretAccessKey: s3SecretAccessKey,
    virtualHostedStyle: !settings.s3PathStyle,
  })
}

/** The object `pdfshare-id` at the bucket's root, beside `blobs/`. */
const ID_OBJECT = 'pdfshare-id'

function bucketIdHolder(root: ObjectFolder, bucket: string): IdHolder {
  return {
    where: `the object ${ID_OBJECT} in the bucket ${bucket}`,
    read: async () => {
      const bytes = await root.get(ID_OBJECT)
      return bytes === undefined ? undefined : new TextDecoder().decode(bytes).trim()
    },
    write: (id) => root.put(ID_OBJECT, new TextEncoder().encode(`${id}\n`), 'text/plain'),
  }
}
