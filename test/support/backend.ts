/**
 * Which engines the test apps run on. By default the embedded ones (a libSQL file, blobs in the data dir).
 * With PDFSHARE_TEST_BACKEND=postgres-s3 (the test command's second pass over the API and share-page suites)
 * every `startTestApp` gets its own database on a throwaway PostgreSQL cluster and its own bucket on a
 * throwaway Ceph object gateway, the engines of a scaled-out install (scripts/support/postgres.ts, ceph.ts).
 * With PDFSHARE_TEST_BACKEND=postgres-s3-lb (the third pass) the same, and the test's requests go through HAProxy
 * to three server processes on that database and bucket (harness.ts).
 */
import { sharedCeph } from '../../scripts/support/ceph'
import { freshPostgres } from '../../scripts/support/postgres'
import { s3SettingsOf } from './s3'

export type TestBackend = 'embedded' | 'postgres-s3' | 'postgres-s3-lb'

const BACKENDS: TestBackend[] = ['embedded', 'postgres-s3', 'postgres-s3-lb']
const asked = process.env.PDFSHARE_TEST_BACKEND
if (asked && !BACKENDS.includes(asked as TestBackend)) throw new Error(`PDFSHARE_TEST_BACKEND=${asked}: not one of ${BACKENDS.join(', ')}`)
export const testBackend: TestBackend = (asked as TestBackend | undefined) || 'embedded'

let buckets = 0

/** The settings that put one test app on the backend, and what removes its database afterwards. */
export async function backendSettings(): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (testBackend === 'embedded') return { env: {}, cleanup: async () => {} }
  const [postgres, gateway] = await Promise.all([freshPostgres(), sharedCeph()])
  const bucket = `pdfshare-t${process.pid}-${++buckets}`
  await gateway.createBucket(bucket)
  return {
    env: {
      PDFSHARE_DATABASE_URL: postgres.url,
      PDFSHARE_STORAGE: 's3',
      ...s3SettingsOf(gateway, bucket),
      PDFSHARE_S3_PATH_STYLE: '1',
    },
    cleanup: postgres.stop,
  }
}
