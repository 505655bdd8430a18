import { expect, test } from 'bun:test'
import { expectTypeOf } from 'expect-type'
import { SETTING_FLAGS, type Config, type SettingFlag } from '../../src/config'
import type { Language } from '../../src/shared/languages'

// Config is derived from the table of settings; this is the shape the rest of the code was written against.
// Checked by `bun run typecheck` (tsc); the runtime test keeps bun test honest too.
type WrittenOut = {
  port: number
  host: string
  dataDir: string
  publicUrl: string
  databaseUrl: string
  jwtSecret: string | undefined
  migrateTo: string | undefined
  s3CopiesSize: number
  s3ConnectTimeout: number
  s3IdleTimeout: number
  maxFileSize: number
  maxVersions: number
  rateLimitApi: number
  rateLimitShare: number
  rateLimitPageDraws: number
  idleTimeout: number
  trustProxyHops: number
  metricsToken: string | undefined
  maxUploads: number
  maxUploadsPerUser: number
  minFreeDisk: number
  shutdownTimeout: number
  sessionTtl: number
  recentSignIn: number
  rateLimitLogin: number
  previewTimeout: number
  previewMemory: number
  previewNice: number
  drawAhead: boolean
  searchIndex: boolean
  pageCacheSize: number
  maxTokensPerUser: number
  uploadMinRate: number
  uploadTimeout: number
  clamd: { path: string } | { host: string; port: number } | undefined
  clamdFailOpen: boolean
  clamdTimeout: number
  maxViewsPerAddress: number
  linkDefaultExpiry: number | null
  linkMaxExpiry: number | null
  linkRequirePassword: boolean
  webhookConcurrency: number
  webhookTimeout: number
  webhookAllowPrivate: boolean
  analyticsRetention: number
  auditRetention: number
  idempotencyTtl: number
  passwordSignIn: boolean
  oidcIssuer: string | undefined
  oidcClientId: string | undefined
  oidcClientSecret: string | undefined
  oidcName: string
  oidcAllowedDomains: string[]
  oidcAdminGroup: string | undefined
  oidcTeamGroups: { group: string; teamId: string; role: 'owner' | 'editor' | 'viewer' }[]
  authProxyHeader: string | undefined
  authProxyAddresses: string[]
  authProxySecret: string | undefined
  smtpUrl: string | undefined
  mailFrom: string | undefined
  storage: 'local' | 's3'
  s3Endpoint: string | undefined
  s3Bucket: string | undefined
  s3Region: string
  s3AccessKeyId: string | undefined
  s3SecretAccessKey: string | undefined
  s3PathStyle: boolean
  brandName: string | undefined
  brandAccent: string | undefined
  brandLogo: string | undefined
  brandHidePdfshare: boolean
  defaultLanguage: Language
}

test('Config, as derived from the table of settings, is the written-out type', () => {
  expectTypeOf<Config>().toEqualTypeOf<WrittenOut>()
  expectTypeOf<SettingFlag>().toEqualTypeOf<'port' | 'host' | 'data' | 'public-url'>()
  expect(SETTING_FLAGS).toEqual(['port', 'host', 'data', 'public-url'])
})
