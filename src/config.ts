import { isAbsolute, resolve } from 'node:path'
import { parseTtl } from './lib/durations'
import { parseSize, formatSize } from './lib/sizes'

/**
 * Every setting of pdfshare, resolved once at start-up (flags beat env, env beats defaults) and then
 * passed in. Nothing else reads process.env.
 */
export type Config = {
  port: number
  host: string
  /** Absolute path of the data dir; all state lives under it. */
  dataDir: string
  /** Base of every shareUrl, without a trailing slash; may carry a path prefix for a reverse proxy. */
  publicUrl: string
  /** libSQL URL of the metadata database; the embedded file in the data dir unless PDFSHARE_DATABASE_URL says otherwise. */
  databaseUrl: string
  /** HS256 secret from PDFSHARE_JWT_SECRET; when absent a generated secret is kept in the data dir. */
  jwtSecret: string | undefined
  /** Largest accepted PDF in bytes (hard cap 100 MiB, may be lowered). */
  maxFileSize: number
  /** Requests per minute per user (all of a user's tokens together); 0 turns the limit off. */
  rateLimitApi: number
  /** Requests per minute per client address (IPv6: per /64) on /s/*; 0 turns the limit off. */
  rateLimitShare: number
  /** Seconds a connection may stay silent before the server drops it. */
  idleTimeout: number
  /** Reverse proxies in front of the server whose X-Forwarded-For entries are trusted (0: use the socket address). */
  trustProxyHops: number
  /** Uploads (and replacements) streaming at once: in total, and per user. */
  maxUploads: number
  maxUploadsPerUser: number
  /** Free space the data dir's disk must keep after an upload; uploads that would eat into it are refused. */
  minFreeDisk: number
  /** Seconds in-flight requests get to finish after SIGTERM/SIGINT before connections are closed. */
  shutdownTimeout: number
  /** Lifetime in seconds of the token a password sign-in issues. */
  sessionTtl: number
  /** Failed sign-ins per minute, per client address and per user name; 0 turns the limit off. */
  rateLimitLogin: number
  /** Seconds one share-page preview may take to render before its renderer process is killed. */
  previewTimeout: number
  /** Resident memory in bytes one preview renderer process may use before it is killed. */
  previewMemory: number
  /** Active (unrevoked, unexpired) tokens a user may have, however they were issued. */
  maxTokensPerUser: number
  /** Average bytes per second an upload's body must reach after its first 20 s; 0 = no minimum. */
  uploadMinRate: number
  /** Seconds an upload's body may take in all. */
  uploadTimeout: number
  /** Views one client address (IPv6: one /64) may add to one file per 30 minutes; 0 = no bound. */
  maxViewsPerAddress: number
}

/** The contract's hard cap: 100 MiB. A lower cap may be configured, never a higher one. */
export const HARD_MAX_FILE_SIZE = 100 * 1024 * 1024

/** A setting that could not be understood; main prints its message as one line and exits with code 2. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Values of the command-line flags that carry settings (already split from argv by the CLI). */
export type SettingFlags = Partial<Record<'port' | 'host' | 'data' | 'public-url', string>>

type Env = Record<string, string | undefined>

const KNOWN_ENV = new Set([
  'PDFSHARE_PORT', 'PDFSHARE_HOST', 'PDFSHARE_DATA_DIR', 'PDFSHARE_PUBLIC_URL', 'PDFSHARE_DATABASE_URL',
  'PDFSHARE_JWT_SECRET', 'PDFSHARE_MAX_FILE_SIZE', 'PDFSHARE_RATE_LIMIT_API', 'PDFSHARE_RATE_LIMIT_SHARE',
  'PDFSHARE_IDLE_TIMEOUT', 'PDFSHARE_TRUST_PROXY', 'PDFSHARE_MAX_UPLOADS', 'PDFSHARE_MAX_UPLOADS_PER_USER',
  'PDFSHARE_MIN_FREE_DISK', 'PDFSHARE_SHUTDOWN_TIMEOUT', 'PDFSHARE_SESSION_TTL', 'PDFSHARE_RATE_LIMIT_LOGIN',
  'PDFSHARE_PREVIEW_TIMEOUT', 'PDFSHARE_PREVIEW_MEMORY',
  'PDFSHARE_MAX_TOKENS_PER_USER', 'PDFSHARE_UPLOAD_MIN_RATE', 'PDFSHARE_UPLOAD_TIMEOUT',
  'PDFSHARE_MAX_VIEWS_PER_ADDRESS',
])

/** PDFSHARE_* variables that are not settings, most likely typos; the CLI warns about them. */
export function unknownEnvSettings(env: Env): string[] {
  return Object.keys(env).filter((name) => name.startsWith('PDFSHARE_') && !KNOWN_ENV.has(name)).sort()
}

export function loadConfig(flags: SettingFlags, env: Env, cwd = process.cwd()): Config {
  const pick = (flag: keyof SettingFlags | undefined, envName: string) => {
    const fromFlag = flag ? flags[flag] : undefined
    if (fromFlag !== undefined) return { value: fromFlag, source: `--${flag}` }
    const fromEnv = env[envName]
    if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: envName }
    return undefined
  }

  const port = integerSetting(pick('port', 'PDFSHARE_PORT'), 3000, 0, 65535, 'an integer from 0 to 65535 (0 picks a free port)')
  const host = pick('host', 'PDFSHARE_HOST')?.value ?? '0.0.0.0'
  const dataSetting = pick('data', 'PDFSHARE_DATA_DIR')
  const dataDir = resolve(cwd, dataSetting?.value ?? 'data')
  if (dataSetting && dataSetting.value.trim() === '') throw new ConfigError(`invalid ${dataSetting.source}: must not be empty`)

  const publicUrl = publicUrlSetting(pick('public-url', 'PDFSHARE_PUBLIC_URL'), port)
  const databaseUrl = databaseUrlSetting(pick(undefined, 'PDFSHARE_DATABASE_URL'), dataDir, cwd)

  const secret = pick(undefined, 'PDFSHARE_JWT_SECRET')
  if (secret && Buffer.byteLength(secret.value) < 32) {
    throw new ConfigError('invalid PDFSHARE_JWT_SECRET: must be at least 32 bytes long (for example: openssl rand -hex 32)')
  }

  const maxFileSize = maxFileSizeSetting(pick(undefined, 'PDFSHARE_MAX_FILE_SIZE'))
  const rateLimitApi = integerSetting(pick(undefined, 'PDFSHARE_RATE_LIMIT_API'), 600, 0, 100_000_000, 'a number of requests per minute (0 turns the limit off)')
  const rateLimitShare = integerSetting(pick(undefined, 'PDFSHARE_RATE_LIMIT_SHARE'), 600, 0, 100_000_000, 'a number of requests per minute (0 turns the limit off)')
  const idleTimeout = integerSetting(pick(undefined, 'PDFSHARE_IDLE_TIMEOUT'), 30, 1, 255, 'a number of seconds from 1 to 255')

  const trustProxyHops = integerSetting(pick(undefined, 'PDFSHARE_TRUST_PROXY'), 0, 0, 10, 'the number of reverse proxies in front of pdfshare (0 to 10)')

  const maxUploads = integerSetting(pick(undefined, 'PDFSHARE_MAX_UPLOADS'), 16, 1, 10_000, 'a number of concurrent uploads from 1')
  const maxUploadsPerUser = integerSetting(pick(undefined, 'PDFSHARE_MAX_UPLOADS_PER_USER'), 4, 1, 10_000, 'a number of concurrent uploads from 1')
  const minFreeDisk = sizeSetting(pick(undefined, 'PDFSHARE_MIN_FREE_DISK'), 128 * 1024 * 1024)
  const shutdownTimeout = integerSetting(pick(undefined, 'PDFSHARE_SHUTDOWN_TIMEOUT'), 30, 0, 3600, 'a number of seconds')
  const sessionTtl = sessionTtlSetting(pick(undefined, 'PDFSHARE_SESSION_TTL'))
  const rateLimitLogin = integerSetting(pick(undefined, 'PDFSHARE_RATE_LIMIT_LOGIN'), 10, 0, 100_000_000, 'a number of sign-in attempts per minute (0 turns the limit off)')
  const maxTokensPerUser = integerSetting(pick(undefined, 'PDFSHARE_MAX_TOKENS_PER_USER'), 100, 1, 1_000_000, 'a number of tokens from 1')
  const uploadMinRate = uploadMinRateSetting(pick(undefined, 'PDFSHARE_UPLOAD_MIN_RATE'))
  const uploadTimeout = integerSetting(pick(undefined, 'PDFSHARE_UPLOAD_TIMEOUT'), 3600, 1, 86_400, 'a number of seconds from 1 to 86400')
  const maxViewsPerAddress = integerSetting(pick(undefined, 'PDFSHARE_MAX_VIEWS_PER_ADDRESS'), 20, 0, 1_000_000, 'a number of views (0 turns the bound off)')

  const previewTimeout = integerSetting(pick(undefined, 'PDFSHARE_PREVIEW_TIMEOUT'), 5, 1, 300, 'a number of seconds from 1 to 300')
  const previewMemory = previewMemorySetting(pick(undefined, 'PDFSHARE_PREVIEW_MEMORY'))

  return {
    port, host, dataDir, publicUrl, databaseUrl, jwtSecret: secret?.value, maxFileSize, rateLimitApi, rateLimitShare,
    idleTimeout, trustProxyHops, maxUploads, maxUploadsPerUser, minFreeDisk, shutdownTimeout, sessionTtl, rateLimitLogin,
    previewTimeout, previewMemory,
    maxTokensPerUser, uploadMinRate, uploadTimeout, maxViewsPerAddress,
  }
}

/** The preview renderer's memory cap: 512 MiB unless set; below 128 MiB not even a small PDF renders. */
function previewMemorySetting(picked: Picked): number {
  if (!picked) return 512 * 1024 * 1024
  const bytes = parseSize(picked.value)
  if (bytes === undefined || bytes < 128 * 1024 * 1024 || bytes > 64 * 1024 * 1024 * 1024) {
    throw new ConfigError(`invalid ${picked.source} ${JSON.stringify(picked.value)}: must be a size from 128MB to 64GB (e.g. 512MB)`)
  }
  return bytes
}

type Picked = { value: string; source: string } | undefined

/** A sign-in's token lifetime: 12 h unless set, at least 5 minutes, at most 30 days, never "never". */
function sessionTtlSetting(picked: Picked): number {
  if (!picked) return 12 * 3600
  const seconds = parseTtl(picked.value)
  if (typeof seconds !== 'number' || seconds < 300 || seconds > 30 * 86_400) {
    throw new ConfigError(`invalid ${picked.source} ${JSON.stringify(picked.value)}: must be a lifetime from 5m to 30d, e.g. 12h`)
  }
  return seconds
}

function integerSetting(picked: Picked, fallback: number, min: number, max: number, expected: string): number {
  if (!picked) return fallback
  const value = Number(picked.value.trim())
  if (!/^\d+$/.test(picked.value.trim()) || value < min || value > max) {
    throw new ConfigError(`invalid ${picked.source} ${JSON.stringify(picked.value)}: must be ${expected}`)
  }
  return value
}

function publicUrlSetting(picked: Picked, port: number): string {
  if (!picked) return `http://localhost:${port}`
  let url: URL
  try {
    url = new URL(picked.value)
  } catch {
    throw new ConfigError(`invalid ${picked.source} ${JSON.stringify(picked.value)}: must be an absolute http(s) URL such as https://pdf.example.com`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`invalid ${picked.source} ${JSON.stringify(picked.value)}: must be an http(s) URL without credentials, query or fragment`)
  }
  return url.href.replace(/\/+$/, '')
}

function databaseUrlSetting(picked: Picked, dataDir: string, cwd: string): string {
  if (!picked) return `file:${dataDir}/pdfshare.db`
  const value = picked.value.trim()
  if (!/^(file|libsql|https?|wss?):/.test(value)) {
    throw new ConfigError(`invalid ${picked.source} ${JSON.stringify(picked.value)}: must be a libSQL URL (file:…, libsql://…, http(s)://…)`)
  }
  if (value.startsWith('file:')) {
    const path = value.slice('file:'.length)
    return isAbsolute(path) ? value : `file:${resolve(cwd, path)}`
  }
  return value
}

function sizeSetting(picked: Picked, fallback: number): number {
  if (!picked) return fallback
  const bytes = parseSize(picked.value)
  if (bytes === undefined) throw new ConfigError(`invalid ${picked.source} ${JSON.stringify(picked.value)}: must be a size such as 512MB or 2GB`)
  return bytes
}

/** Bytes per second, typed as a size ("16KB" = 16 KiB/s); 0 turns the minimum off. */
function uploadMinRateSetting(picked: Picked): number {
  if (!picked) return 16 * 1024
  const bytes = parseSize(picked.value)
  if (bytes === undefined || bytes > HARD_MAX_FILE_SIZE) {
    throw new ConfigError(`invalid ${picked.source} ${JSON.stringify(picked.value)}: must be a size per second up to ${formatSize(HARD_MAX_FILE_SIZE)}, e.g. 16KB (0 turns the minimum off)`)
  }
  return bytes
}

function maxFileSizeSetting(picked: Picked): number {
  if (!picked) return HARD_MAX_FILE_SIZE
  const bytes = parseSize(picked.value)
  if (bytes === undefined || bytes < 1 || bytes > HARD_MAX_FILE_SIZE) {
    throw new ConfigError(`invalid ${picked.source} ${JSON.stringify(picked.value)}: must be a size from 1 byte to ${formatSize(HARD_MAX_FILE_SIZE)} (e.g. 20MB)`)
  }
  return bytes
}
