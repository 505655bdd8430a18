/**
 * Which engines the test apps run on. By default the embedded ones (a libSQL file, blobs in the data dir).
 * With PDFSHARE_TEST_BACKEND=postgres-s3 (the test command's second pass over the API and share-page suites)
 * every `startTestApp` gets its own database on a throwaway PostgreSQL cluster and its own bucket on a
 * throwaway Ceph object gateway, the engines of a scaled-out install (scripts/support/postgres.ts, ceph.ts).
 * With PDFSHARE_TEST_BACKEND=postgres-s3-lb (the third pass) the same, and the test's requests go through HAProxy
 * to three server processes on that database and bucket (harness.ts).
 */
import { freshInstall } from '../../scripts/support/instances'

export type TestBackend = 'embedded' | 'postgres-s3' | 'postgres-s3-lb'

const BACKENDS: TestBackend[] = ['embedded', 'postgres-s3', 'postgres-s3-lb']
const asked = process.env.PDFSHARE_TEST_BACKEND
if (asked && !BACKENDS.includes(asked as TestBackend)) throw new Error(`PDFSHARE_TEST_BACKEND=${asked}: not one of ${BACKENDS.join(', ')}`)
export const testBackend: TestBackend = (asked as TestBackend | undefined) || 'embedded'

/** The settings that put one test app on the backend, and what removes its database afterwards. */
export async function backendSettings(): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (testBackend === 'embedded') return { env: {}, cleanup: async () => {} }
  // Its schema copied from a migrated template: migrating it is the CLI's and test/db's subject, not every app's.
  const install = await freshInstall({ migrated: true })
  return { env: install.env, cleanup: install.stop }
}
