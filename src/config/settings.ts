import { BRAND_LIMITS } from '../shared/branding-shapes'
import { formatSize } from '../shared/sizes'
import { ACCEPTED_BOOLEANS } from '../lib/booleans'
import { formatTtl } from '../lib/durations'
import {
  anyText,
  baseUrl,
  boolean,
  clamdAddress,
  type ClamdAddress,
  brandName,
  hexColour,
  logoFile,
  directory,
  domainList,
  exactUrl,
  headerName,
  smtpUrl,
  mailbox,
  addressList,
  integer,
  language,
  databaseUrl,
  lifetime,
  nonBlank,
  oneOf,
  optionalLifetime,
  secret,
  size,
  teamGroups,
  type TeamGroup,
} from './readers'
import { setting } from './setting'
import { LANGUAGES, type Language } from '../shared/languages'

/** The hard cap on a PDF: 100 MiB, what the API promises its clients. A lower cap may be configured, never a higher one. */
export const HARD_MAX_FILE_SIZE = 100 * 1024 * 1024

const PER_MINUTE_MAX = 100_000_000

/** The longest link expiry a setting may name: 100 years, far beyond any real policy, and safe as milliseconds. */
const LINK_EXPIRY_MAX = 100 * 31_536_000
const LINK_EXPIRY_RULE = 'must be a duration from 1m to 100y such as 30m, 12h, 7d or 2w, or none'

/**
 * Every setting of pdfshare, in the order they are read (a default may use settings above it; with several
 * invalid values, the first one here is the one reported). The Settings table in docs/operations.md lists the same.
 */
export const SETTINGS = {
  port: setting({
    flag: { name: 'port', arg: 'N' },
    env: 'PDFSHARE_PORT',
    default: '3000',
    parse: integer(0, 65535),
    rule: 'must be an integer from 0 to 65535 (0 picks a free port)',
    help: 'the port to listen on; 0 picks a free port',
  }),
  host: setting({
    flag: { name: 'host', arg: 'ADDR' },
    env: 'PDFSHARE_HOST',
    default: '0.0.0.0',
    parse: anyText,
    help: 'the address to listen on',
  }),
  /** Absolute path of the data dir; all state lives under it. */
  dataDir: setting({
    flag: { name: 'data', arg: 'DIR' },
    env: 'PDFSHARE_DATA_DIR',
    default: './data',
    parse: directory,
    rule: 'must not be empty',
    quiet: true,
    help: 'where all state lives (database, PDFs, secret, previews)',
  }),
  /** Base of every shareUrl, without a trailing slash; may carry a path prefix for a reverse proxy. */
  publicUrl: setting({
    flag: { name: 'public-url', arg: 'URL' },
    env: 'PDFSHARE_PUBLIC_URL',
    default: { shown: 'http://localhost:<port>', from: ({ port }) => `http://localhost:${port}` },
    parse: baseUrl,
    rule: (text) =>
      URL.canParse(text)
        ? 'must be an http(s) URL without credentials, query or fragment'
        : 'must be an absolute http(s) URL such as https://pdf.example.com',
    help: 'base of every share link; may have a path prefix for a reverse proxy',
  }),
  /** URL of the metadata database: libSQL (the embedded file by default) or PostgreSQL. */
  databaseUrl: setting({
    env: 'PDFSHARE_DATABASE_URL',
    default: { shown: 'file:<data>/pdfshare.db', from: ({ dataDir }) => `file:${dataDir}/pdfshare.db` },
    parse: databaseUrl,
    rule: 'must be a libSQL URL (file:…, libsql://…, http(s)://…) or a PostgreSQL URL (postgres://user:password@host:5432/db)',
    help: 'the metadata database: a postgres:// URL for PostgreSQL (several instances); a libsql:// or http(s):// server also works',
  }),
  /** The PostgreSQL URL `database migrate` copies into, when --to is not given (argv is seen by `ps` and shell history). */
  migrateTo: setting<string | undefined>({
    env: 'PDFSHARE_MIGRATE_TO',
    default: { shown: 'none', from: () => undefined },
    parse: (text: string) => (/^postgres(?:ql)?:\/\//i.test(text.trim()) && URL.canParse(text.trim()) ? text.trim() : undefined),
    rule: 'must be a PostgreSQL URL (postgres://user:password@host:5432/db)',
    quiet: true,
    help: 'the PostgreSQL URL database migrate copies into (instead of --to, which ps and shell history show)',
  }),
  /** HS256 secret; when absent, a generated secret is kept in the data dir. */
  jwtSecret: setting<string | undefined>({
    env: 'PDFSHARE_JWT_SECRET',
    default: { shown: 'generated', from: () => undefined },
    parse: secret(32),
    rule: 'must be at least 32 bytes long (for example: openssl rand -hex 32)',
    quiet: true,
    help: 'the token signing secret, ≥ 32 bytes; otherwise one is kept in the data dir',
  }),
  /** Largest accepted PDF, in bytes. */
  maxFileSize: setting({
    env: 'PDFSHARE_MAX_FILE_SIZE',
    default: '100MB',
    parse: size(1, HARD_MAX_FILE_SIZE),
    rule: `must be a size from 1 byte to ${formatSize(HARD_MAX_FILE_SIZE)} (e.g. 20MB)`,
    help: 'the largest PDF accepted; may be lowered, never raised',
  }),
  /** Previous PDFs kept per file when it is replaced; 0 keeps none. */
  maxVersions: setting({
    env: 'PDFSHARE_MAX_VERSIONS',
    default: '5',
    parse: integer(0, 100),
    rule: 'must be a number of versions from 0 to 100 (0 keeps none)',
    help: 'previous PDFs kept per file when it is replaced (they count toward the quota); 0 = none',
  }),
  rateLimitApi: setting({
    env: 'PDFSHARE_RATE_LIMIT_API',
    default: '600',
    parse: integer(0, PER_MINUTE_MAX),
    rule: 'must be a number of requests per minute (0 turns the limit off)',
    help: 'API requests per minute per user, all their tokens together; 0 = off',
  }),
  rateLimitShare: setting({
    env: 'PDFSHARE_RATE_LIMIT_SHARE',
    default: '600',
    parse: integer(0, PER_MINUTE_MAX),
    rule: 'must be a number of requests per minute (0 turns the limit off)',
    help: 'requests per minute per client address on /s/* (IPv6: per /64); 0 = off',
  }),
  /** Pages the renderers draw for one client address in any (sliding) minute: the work one reader can ask for. */
  rateLimitPageDraws: setting({
    env: 'PDFSHARE_RATE_LIMIT_PAGE_DRAWS',
    default: '120',
    parse: integer(0, PER_MINUTE_MAX),
    rule: 'must be a number of pages per minute (0 turns the limit off)',
    help: 'pages drawn on the server per minute per client address (IPv6: per /64; pages already drawn are free); 0 = off',
  }),
  /** Seconds a connection may stay silent before the server drops it. */
  idleTimeout: setting({
    env: 'PDFSHARE_IDLE_TIMEOUT',
    default: '30',
    parse: integer(1, 255),
    rule: 'must be a number of seconds from 1 to 255',
    help: 'seconds a silent connection is kept',
  }),
  trustProxyHops: setting({
    env: 'PDFSHARE_TRUST_PROXY',
    default: '0',
    parse: integer(0, 10),
    rule: 'must be the number of reverse proxies in front of pdfshare (0 to 10)',
    help: 'reverse proxies in front whose X-Forwarded-For is trusted; 0 = none',
  }),
  metricsToken: setting<string | undefined>({
    env: 'PDFSHARE_METRICS_TOKEN',
    default: { shown: 'none', from: () => undefined },
    parse: secret(16),
    rule: 'must be at least 16 bytes long (for example: openssl rand -hex 16)',
    quiet: true,
    help: 'turns on GET /metrics (Prometheus), which then needs it as a bearer token; ≥ 16 bytes',
  }),
  maxUploads: setting({
    env: 'PDFSHARE_MAX_UPLOADS',
    default: '16',
    parse: integer(1, 10_000),
    rule: 'must be a number of concurrent uploads from 1',
    help: 'uploads and replacements streaming at once, server-wide (more → 503)',
  }),
  maxUploadsPerUser: setting({
    env: 'PDFSHARE_MAX_UPLOADS_PER_USER',
    default: '4',
    parse: integer(1, 10_000),
    rule: 'must be a number of concurrent uploads from 1',
    help: 'uploads and replacements streaming at once, per user (more → 429)',
  }),
  /** Bytes the data dir's disk must keep free after an upload. */
  minFreeDisk: setting({
    env: 'PDFSHARE_MIN_FREE_DISK',
    default: '128MB',
    parse: size(),
    rule: 'must be a size such as 512MB or 2GB',
    help: "free space kept on the data dir's disk; an upload that would use it → 507",
  }),
  /** Seconds in-flight requests get to finish after SIGTERM/SIGINT. */
  shutdownTimeout: setting({
    env: 'PDFSHARE_SHUTDOWN_TIMEOUT',
    default: '30',
    parse: integer(0, 3600),
    rule: 'must be a number of seconds',
    help: 'seconds in-flight requests get after SIGTERM/SIGINT',
  }),
  /** Lifetime in seconds of the token a password sign-in issues. */
  sessionTtl: setting({
    env: 'PDFSHARE_SESSION_TTL',
    default: '12h',
    parse: lifetime(5 * 60, 30 * 86_400),
    rule: 'must be a lifetime from 5m to 30d, e.g. 12h',
    help: 'lifetime of the token a password sign-in issues (5m to 30d)',
  }),
  /**
   * Seconds within which a session's sign-in counts as recent: an account without a password (single sign-on,
   * passkeys, the authenticating proxy) may change how it signs in only that soon after signing in.
   */
  recentSignIn: setting({
    env: 'PDFSHARE_RECENT_SIGN_IN',
    default: '10m',
    parse: lifetime(60, 86_400),
    rule: 'must be a lifetime from 1m to 1d, e.g. 10m',
    help: 'how recent a sign-in must be for an account without a password to change its passkeys, 2FA or email (1m to 1d)',
  }),
  rateLimitLogin: setting({
    env: 'PDFSHARE_RATE_LIMIT_LOGIN',
    default: '10',
    parse: integer(0, PER_MINUTE_MAX),
    rule: 'must be a number of sign-in attempts per minute (0 turns the limit off)',
    help: 'failed sign-ins per minute, per client address and per user name (also passkey prompts and SSO returns); 0 = off',
  }),
  /** Active (unrevoked, unexpired) tokens a user may have, however they were issued. */
  maxTokensPerUser: setting({
    env: 'PDFSHARE_MAX_TOKENS_PER_USER',
    default: '100',
    parse: integer(1, 1_000_000),
    rule: 'must be a number of tokens from 1',
    help: 'active tokens per user (API, sign-in and CLI alike)',
  }),
  /** Average bytes per second an upload's body must reach after its first 20 s; 0 = no minimum. */
  uploadMinRate: setting({
    env: 'PDFSHARE_UPLOAD_MIN_RATE',
    default: '16KB',
    parse: size(0, HARD_MAX_FILE_SIZE),
    rule: `must be a size per second up to ${formatSize(HARD_MAX_FILE_SIZE)}, e.g. 16KB (0 turns the minimum off)`,
    help: 'bytes a second an upload must average after its first 20 s (slower → 408); 0 = none',
  }),
  /** Seconds an upload's body may take in all. */
  uploadTimeout: setting({
    env: 'PDFSHARE_UPLOAD_TIMEOUT',
    default: '3600',
    parse: integer(1, 86_400),
    rule: 'must be a number of seconds from 1 to 86400',
    help: "seconds an upload's body may take in all (longer → 408)",
  }),
  /**
   * clamd (ClamAV's daemon), which every received PDF is streamed to before it is stored (core/uploads/virus-scan.ts):
   * a file request's, an owner's upload and a replacement; none: nothing is scanned.
   */
  clamd: setting<ClamdAddress | undefined>({
    env: 'PDFSHARE_CLAMD',
    default: { shown: 'none', from: () => undefined },
    parse: clamdAddress,
    rule: 'must be unix:/path/to/clamd.sock (an absolute path) or tcp://host:3310',
    help: 'scan every received PDF with clamd before it is stored: unix:/run/clamav/clamd.ctl or tcp://host:3310',
  }),
  /** Owners' own uploads and replacements are stored unscanned when clamd cannot scan them; a file request's never are. */
  clamdFailOpen: setting({
    env: 'PDFSHARE_CLAMD_FAIL_OPEN',
    default: 'false',
    parse: boolean,
    rule: `must be one of ${ACCEPTED_BOOLEANS}`,
    help: "store owners' own uploads unscanned when clamd cannot be reached (file requests are refused then: 503)",
  }),
  /** Seconds one scan may take, the PDF's bytes sent and clamd's answer read. */
  clamdTimeout: setting({
    env: 'PDFSHARE_CLAMD_TIMEOUT',
    default: '60',
    parse: integer(1, 3600),
    rule: 'must be a number of seconds from 1 to 3600',
    help: 'seconds clamd may take to scan one PDF (its bytes sent and its answer read); then the scan failed',
  }),
  maxViewsPerAddress: setting({
    env: 'PDFSHARE_MAX_VIEWS_PER_ADDRESS',
    default: '20',
    parse: integer(0, 1_000_000),
    rule: 'must be a number of views (0 turns the bound off)',
    help: 'views one address (IPv6: a /64) may add to a link per 30 minutes; 0 = no bound',
  }),
  /** Seconds of CPU time one share-page preview may use to render before its renderer process is killed. */
  previewTimeout: setting({
    env: 'PDFSHARE_PREVIEW_TIMEOUT',
    default: '5',
    parse: integer(1, 300),
    rule: 'must be a number of seconds from 1 to 300',
    help: 'seconds of CPU time one link-preview render may use before its renderer is killed',
  }),
  /**
   * The nice value preview renderers run at: above the server's 0, so a busy render never slows an answer. A
   * machine where everything else is as important as a render (a test run, where the rest is other tests) sets 0.
   */
  previewNice: setting({
    env: 'PDFSHARE_PREVIEW_NICE',
    default: '10',
    parse: integer(0, 19),
    rule: 'must be a nice value from 0 to 19',
    help: "CPU priority of preview renderers as a nice value (0 = the server's own, 19 = the lowest)",
  }),
  /** Resident memory in bytes one preview renderer process may use before it is killed. */
  previewMemory: setting({
    env: 'PDFSHARE_PREVIEW_MEMORY',
    default: '512MB',
    // Below 128 MB not even a small PDF renders.
    parse: size(128 * 1024 * 1024, 64 * 1024 * 1024 * 1024),
    rule: 'must be a size from 128MB to 64GB (e.g. 512MB)',
    help: 'memory one preview renderer may use before it is killed',
  }),
  /**
   * Page 1 of every new PDF (upload, replacement, restored version) is drawn in the background at the widths
   * share pages ask for most, so the first reader sees it at once.
   */
  drawAhead: setting({
    env: 'PDFSHARE_DRAW_AHEAD',
    default: 'true',
    parse: boolean,
    rule: `must be one of ${ACCEPTED_BOOLEANS}`,
    help: 'draw page 1 of each new PDF in the background, so share pages show it at once',
  }),
  /**
   * Every PDF's text is read in the background by the background renderer into the search index (core/search,
   * docs/search.md); off, nothing is read and every file's text stays `pending` (GET /api/search finds nothing).
   */
  searchIndex: setting({
    env: 'PDFSHARE_SEARCH_INDEX',
    default: 'true',
    parse: boolean,
    rule: `must be one of ${ACCEPTED_BOOLEANS}`,
    help: "read each PDF's text in the background into the search index (GET /api/search)",
  }),
  /** Bytes of page images and texts one data dir keeps (core/previews/page-cache-budget.ts), least recently used out first. */
  pageCacheSize: setting({
    env: 'PDFSHARE_PAGE_CACHE_SIZE',
    default: '1GB',
    parse: size(16 * 1024 * 1024, 1024 * 1024 * 1024 * 1024),
    rule: 'must be a size from 16MB to 1TB (e.g. 1GB)',
    help: 'disk for pages drawn on the server (images, texts); the least recently served go first',
  }),
  /** Seconds from its creation after which a new share link expires when none was sent; null: never. */
  linkDefaultExpiry: setting<number | null>({
    env: 'PDFSHARE_LINK_DEFAULT_EXPIRY',
    default: 'none',
    parse: optionalLifetime(60, LINK_EXPIRY_MAX),
    rule: LINK_EXPIRY_RULE,
    help: 'expiry of a new share link sent without one (upload or POST), e.g. 7d; none = never',
  }),
  /** The longest a new or changed share link may live, in seconds; null: no limit. */
  linkMaxExpiry: setting<number | null>({
    env: 'PDFSHARE_LINK_MAX_EXPIRY',
    default: 'none',
    parse: optionalLifetime(60, LINK_EXPIRY_MAX),
    rule: LINK_EXPIRY_RULE,
    help: 'longest expiry a share link may be given, e.g. 30d; links that never expire are refused too',
  }),
  /** Every new share link must have a password, and a password cannot be removed. */
  linkRequirePassword: setting({
    env: 'PDFSHARE_LINK_REQUIRE_PASSWORD',
    default: 'false',
    parse: boolean,
    rule: `must be one of ${ACCEPTED_BOOLEANS}`,
    help: 'every new share link needs a password; a password cannot be removed',
  }),
  /** Webhooks may target loopback, private, link-local and CGNAT addresses (a home ntfy on the LAN, a test receiver). */
  webhookAllowPrivate: setting({
    env: 'PDFSHARE_WEBHOOK_ALLOW_PRIVATE',
    default: 'false',
    parse: boolean,
    rule: `must be one of ${ACCEPTED_BOOLEANS}`,
    help: 'let webhooks target loopback, private (LAN) and link-local addresses',
  }),
  /** Webhook deliveries one instance sends at once (one at a time per webhook, shared fairly among owners). */
  webhookConcurrency: setting({
    env: 'PDFSHARE_WEBHOOK_CONCURRENCY',
    default: '4',
    parse: integer(1, 64),
    rule: 'must be a number of deliveries from 1 to 64',
    help: 'webhook deliveries sent at once (one at a time per webhook)',
  }),
  /** Seconds one delivery attempt may take, the answer included (its connection: at most 3 of them). */
  webhookTimeout: setting({
    env: 'PDFSHARE_WEBHOOK_TIMEOUT',
    default: '10',
    parse: integer(1, 60),
    rule: 'must be a number of seconds from 1 to 60',
    help: 'seconds a webhook delivery attempt may take, its answer included',
  }),
  /** Days visits (reading analytics) are kept; 0 records no visits at all. */
  analyticsRetention: setting({
    env: 'PDFSHARE_ANALYTICS_RETENTION',
    default: '365',
    parse: integer(0, 36_500),
    rule: 'must be a number of days from 0 to 36500 (0 records no visits)',
    help: 'days visits (reading analytics) are kept, then deleted; 0 = record none',
  }),
  /** Days audit-log entries are kept. */
  auditRetention: setting({
    env: 'PDFSHARE_AUDIT_RETENTION',
    default: '365',
    parse: integer(1, 36_500),
    rule: 'must be a number of days from 1 to 36500',
    help: 'days audit-log entries (sign-ins, tokens, users, deletions) are kept, then deleted',
  }),
  /** Seconds a write's answer is kept under its Idempotency-Key (core/idempotency). */
  idempotencyTtl: setting({
    env: 'PDFSHARE_IDEMPOTENCY_TTL',
    default: '24h',
    parse: lifetime(60, 30 * 86_400),
    rule: 'must be a duration from 1m to 30d such as 24h or 7d',
    help: "how long a write's answer is kept for a retry with the same Idempotency-Key",
  }),
  /** Password sign-in to the dashboard and POST /api/auth/login; off: single sign-on (and API tokens) only. */
  passwordSignIn: setting({
    env: 'PDFSHARE_PASSWORD_SIGNIN',
    default: 'true',
    parse: boolean,
    rule: `must be one of ${ACCEPTED_BOOLEANS}`,
    help: 'allow signing in with a user name and password (false: single sign-on only; the CLI keeps working)',
  }),
  /** OpenID Connect single sign-on (docs/sign-in.md): the provider's issuer URL, found by discovery. */
  oidcIssuer: setting<string | undefined>({
    env: 'PDFSHARE_OIDC_ISSUER',
    default: { shown: 'none', from: () => undefined },
    parse: exactUrl,
    rule: 'must be the http(s) URL of an OpenID Connect issuer, e.g. https://auth.example.com/application/o/pdfshare/',
    help: "single sign-on: the OpenID Connect provider's issuer URL (its /.well-known/openid-configuration is read)",
  }),
  oidcClientId: setting<string | undefined>({
    env: 'PDFSHARE_OIDC_CLIENT_ID',
    default: { shown: 'none', from: () => undefined },
    parse: nonBlank,
    help: 'single sign-on: the client id pdfshare has at the provider',
  }),
  oidcClientSecret: setting<string | undefined>({
    env: 'PDFSHARE_OIDC_CLIENT_SECRET',
    default: { shown: 'none', from: () => undefined },
    parse: nonBlank,
    quiet: true,
    help: 'single sign-on: the client secret (none: a public client, PKCE only)',
  }),
  oidcName: setting({
    env: 'PDFSHARE_OIDC_NAME',
    default: 'SSO',
    parse: nonBlank,
    rule: 'must not be empty',
    help: 'single sign-on: the provider\'s name on the sign-in button ("Sign in with …")',
  }),
  oidcAllowedDomains: setting<string[]>({
    env: 'PDFSHARE_OIDC_ALLOWED_DOMAINS',
    default: { shown: 'none', from: () => [] },
    parse: domainList,
    rule: 'must be email domains separated by commas, e.g. example.com,example.org',
    help: 'single sign-on: a first sign-in with a verified email of these domains creates the user',
  }),
  oidcAdminGroup: setting<string | undefined>({
    env: 'PDFSHARE_OIDC_ADMIN_GROUP',
    default: { shown: 'none', from: () => undefined },
    parse: nonBlank,
    help: "single sign-on: members of this group (the ID token's groups claim) are admins",
  }),
  oidcTeamGroups: setting<TeamGroup[]>({
    env: 'PDFSHARE_OIDC_TEAM_GROUPS',
    default: { shown: 'none', from: () => [] },
    parse: teamGroups,
    rule: 'must be GROUP=TEAM_ID:ROLE entries separated by commas (ROLE: owner, editor or viewer), e.g. sales=TEAM_ID:editor, or a JSON list [{"group":…,"team":…,"role":…}]',
    help: "single sign-on: members of a group (the ID token's groups claim) are members of the team with the role; kept up to date at each sign-in",
  }),
  /** Behind an authenticating proxy (Authelia, Authentik's outpost): the header naming the signed-in user. */
  authProxyHeader: setting<string | undefined>({
    env: 'PDFSHARE_AUTH_PROXY_HEADER',
    default: { shown: 'none', from: () => undefined },
    parse: headerName,
    rule: 'must be an HTTP header name such as Remote-User',
    help: 'sign in the user an authenticating proxy names in this header (only from PDFSHARE_AUTH_PROXY_ADDRESSES)',
  }),
  /**
   * The proxy's addresses; no default (it was this machine, which trusted every local program): a header
   * without them stops the start (SETTING_AGREEMENTS).
   */
  authProxyAddresses: setting<string[]>({
    env: 'PDFSHARE_AUTH_PROXY_ADDRESSES',
    default: { shown: 'none', from: () => [] },
    parse: addressList,
    rule: 'must be IP addresses or CIDR ranges separated by commas, e.g. 127.0.0.1,10.0.0.0/8',
    help: 'the addresses of the authenticating proxy (needed with the header): it counts only on connections from them',
  }),
  /** A secret the proxy also sends, in Pdfshare-Proxy-Secret: then a program at the proxy's address is not enough. */
  authProxySecret: setting<string | undefined>({
    env: 'PDFSHARE_AUTH_PROXY_SECRET',
    default: { shown: 'none', from: () => undefined },
    parse: secret(16),
    rule: 'must be at least 16 bytes long (for example: openssl rand -hex 16)',
    quiet: true,
    help: 'with the proxy header: the proxy must also send this in Pdfshare-Proxy-Secret; ≥ 16 bytes',
  }),
  /** Outgoing mail (docs/operations.md, Mail): invitations today. Without it, whatever needs mail says so. */
  smtpUrl: setting<string | undefined>({
    env: 'PDFSHARE_SMTP_URL',
    default: { shown: 'none', from: () => undefined },
    parse: smtpUrl,
    rule: 'must be an SMTP URL such as smtp://user:password@mail.example.com:587 or smtps://…:465',
    quiet: true,
    help: 'the SMTP server mail goes through: smtp://user:pass@host:587 (STARTTLS) or smtps://user:pass@host:465',
  }),
  mailFrom: setting<string | undefined>({
    env: 'PDFSHARE_MAIL_FROM',
    default: { shown: 'pdfshare@<public URL host>', from: () => undefined },
    parse: mailbox,
    rule: 'must be an email address, or a name and an address: pdfshare <pdf@example.com>',
    help: 'the From of the mail pdfshare sends',
  }),
  /** Where PDFs are kept: the data dir's blobs/ folder, or an S3-compatible bucket (the S3_* settings below). */
  storage: setting({
    env: 'PDFSHARE_STORAGE',
    default: 'local',
    parse: oneOf(['local', 's3']),
    rule: 'must be local or s3',
    help: 'where PDFs are kept: local (the data dir) or s3 (an S3-compatible bucket; preview)',
  }),
  s3Endpoint: setting<string | undefined>({
    env: 'PDFSHARE_S3_ENDPOINT',
    default: { shown: 'none', from: () => undefined },
    parse: baseUrl,
    rule: 'must be an http(s) URL such as https://s3.eu-central-1.amazonaws.com',
    help: 'the S3 API address, with PDFSHARE_STORAGE=s3',
  }),
  s3Bucket: setting<string | undefined>({
    env: 'PDFSHARE_S3_BUCKET',
    default: { shown: 'none', from: () => undefined },
    parse: nonBlank,
    help: 'an existing bucket for the PDFs, with PDFSHARE_STORAGE=s3',
  }),
  s3Region: setting({
    env: 'PDFSHARE_S3_REGION',
    default: 'us-east-1',
    parse: nonBlank,
    help: "the bucket's region (signs the requests)",
  }),
  s3AccessKeyId: setting<string | undefined>({
    env: 'PDFSHARE_S3_ACCESS_KEY_ID',
    default: { shown: 'none', from: () => undefined },
    parse: nonBlank,
    help: 'the S3 access key id, with PDFSHARE_STORAGE=s3',
  }),
  s3SecretAccessKey: setting<string | undefined>({
    env: 'PDFSHARE_S3_SECRET_ACCESS_KEY',
    default: { shown: 'none', from: () => undefined },
    parse: nonBlank,
    quiet: true,
    help: 'the S3 secret access key, with PDFSHARE_STORAGE=s3',
  }),
  /** Path-style addresses (endpoint/bucket/key), which every S3-compatible server answers; false: bucket.endpoint/key. */
  s3PathStyle: setting({
    env: 'PDFSHARE_S3_PATH_STYLE',
    default: 'true',
    parse: boolean,
    rule: `must be one of ${ACCEPTED_BOOLEANS}`,
    help: 'address the bucket in the path (true) or as a subdomain of the endpoint (false)',
  }),
  /** Seconds a request to the bucket waits for the store to answer at all (storage/s3-requests.ts). */
  s3ConnectTimeout: setting({
    env: 'PDFSHARE_S3_CONNECT_TIMEOUT',
    default: '5',
    parse: integer(1, 600),
    rule: 'must be a number of seconds from 1 to 600',
    help: 'seconds a request to the bucket waits for the store to answer (or take an upload) at all; then 503',
  }),
  /** Seconds a request to the bucket may go without progress once it is under way. */
  s3IdleTimeout: setting({
    env: 'PDFSHARE_S3_IDLE_TIMEOUT',
    default: '30',
    parse: integer(1, 3600),
    rule: 'must be a number of seconds from 1 to 3600',
    help: 'seconds a request to the bucket may go without a byte moving either way; then 503',
  }),
  /** Bytes of local copies of the bucket's PDFs one instance keeps (storage/local-copies.ts); 0: none. */
  s3CopiesSize: setting({
    env: 'PDFSHARE_S3_COPIES_SIZE',
    default: '1GB',
    parse: size(0, 1024 * 1024 * 1024 * 1024),
    rule: 'must be a size (e.g. 1GB; 0 keeps no copies)',
    help: "disk for local copies of the bucket's PDFs: whole PDFs are sent from them with their length; 0 = none",
  }),
  /** Branding (docs/operations.md, Branding): the defaults an admin may change on the dashboard's Admin page. */
  brandName: setting<string | undefined>({
    env: 'PDFSHARE_BRAND_NAME',
    default: { shown: 'none', from: () => undefined },
    parse: brandName,
    rule: `must be 1 to ${BRAND_LIMITS.name} characters, without control or bidirectional formatting characters`,
    help: 'the instance name on share pages and the dashboard, e.g. Acme Legal (the Admin page may change it)',
  }),
  brandAccent: setting<string | undefined>({
    env: 'PDFSHARE_BRAND_ACCENT',
    default: { shown: 'none', from: () => undefined },
    parse: hexColour,
    rule: 'must be a colour written #rrggbb, e.g. #0b6e4f',
    help: 'the accent colour of buttons, links and focus rings, #rrggbb (the Admin page may change it)',
  }),
  brandLogo: setting<string | undefined>({
    env: 'PDFSHARE_BRAND_LOGO',
    default: { shown: 'none', from: () => undefined },
    parse: logoFile,
    rule: `must be the path of a PNG, JPEG or WebP image of at most ${formatSize(BRAND_LIMITS.logoBytes)} (SVG: convert it to PNG)`,
    help: 'a logo file (PNG, JPEG or WebP) shown on share pages and the dashboard (the Admin page may replace it)',
  }),
  brandHidePdfshare: setting({
    env: 'PDFSHARE_BRAND_HIDE_PDFSHARE',
    default: 'false',
    parse: boolean,
    rule: `must be one of ${ACCEPTED_BOOLEANS}`,
    help: 'name pdfshare nowhere on share pages (link previews, icon) (the Admin page may change it)',
  }),
  /** The reader's pages' language when neither the link, the picker's cookie nor the browser names one we have (docs/languages.md). */
  defaultLanguage: setting<Language>({
    env: 'PDFSHARE_DEFAULT_LANGUAGE',
    default: 'en',
    parse: language,
    rule: `must be one of ${LANGUAGES.join(', ')}`,
    help: "the reader's pages' language when the link, the picker and the browser name none we have",
  }),
}

type Agreeing = {
  linkDefaultExpiry: number | null
  linkMaxExpiry: number | null
  storage: 'local' | 's3'
  s3Endpoint: string | undefined
  s3Bucket: string | undefined
  s3AccessKeyId: string | undefined
  s3SecretAccessKey: string | undefined
  previewTimeout: number
  idleTimeout: number
  oidcIssuer: string | undefined
  oidcClientId: string | undefined
  authProxyHeader: string | undefined
  authProxyAddresses: string[]
  authProxySecret: string | undefined
}

/**
 * Rules between settings, checked once all are read (each reads as a valid value on its own). A problem is
 * the whole line the CLI prints.
 */
export const SETTING_AGREEMENTS: ((config: Agreeing) => string | undefined)[] = [
  ({ linkDefaultExpiry, linkMaxExpiry }) =>
    linkDefaultExpiry !== null && linkMaxExpiry !== null && linkDefaultExpiry > linkMaxExpiry
      ? `PDFSHARE_LINK_DEFAULT_EXPIRY (${formatTtl(linkDefaultExpiry)}) must not be longer than PDFSHARE_LINK_MAX_EXPIRY (${formatTtl(linkMaxExpiry)})`
      : undefined,
  // A link preview's request waits at most until shortly before the connection would be dropped for silence.
  ({ previewTimeout, idleTimeout }) =>
    previewTimeout >= idleTimeout
      ? `PDFSHARE_PREVIEW_TIMEOUT (${previewTimeout} s) must be shorter than PDFSHARE_IDLE_TIMEOUT (${idleTimeout} s): a connection silent that long is dropped, so no preview that takes as long could ever be answered`
      : undefined,
  ({ oidcIssuer, oidcClientId }) =>
    (oidcIssuer === undefined) !== (oidcClientId === undefined)
      ? `single sign-on needs both PDFSHARE_OIDC_ISSUER and PDFSHARE_OIDC_CLIENT_ID (only ${oidcIssuer ? 'the issuer' : 'the client id'} is set)`
      : undefined,
  ({ authProxyHeader, authProxyAddresses, authProxySecret }) => {
    if (authProxyHeader === undefined)
      return authProxySecret === undefined ? undefined : 'PDFSHARE_AUTH_PROXY_SECRET is set, but PDFSHARE_AUTH_PROXY_HEADER is not'
    return authProxyAddresses.length > 0
      ? undefined
      : 'PDFSHARE_AUTH_PROXY_HEADER needs PDFSHARE_AUTH_PROXY_ADDRESSES, the addresses the proxy connects from (e.g. 127.0.0.1 when it runs on this machine); it no longer defaults to this machine, which let any program running here sign in as anyone (docs/sign-in.md)'
  },
  (config) => {
    if (config.storage !== 's3') return undefined
    const missing = missingS3Settings(config)
    return missing.length > 0 ? `PDFSHARE_STORAGE=s3 needs ${missing.join(', ')} (not set)` : undefined
  },
]

/** The variables of the settings an S3 store needs (with PDFSHARE_STORAGE=s3, or to migrate into a bucket) that are not set. */
export function missingS3Settings(config: Omit<Agreeing, 'linkDefaultExpiry' | 'linkMaxExpiry' | 'storage'>): string[] {
  return (
    [
      ['s3Endpoint', 'PDFSHARE_S3_ENDPOINT'],
      ['s3Bucket', 'PDFSHARE_S3_BUCKET'],
      ['s3AccessKeyId', 'PDFSHARE_S3_ACCESS_KEY_ID'],
      ['s3SecretAccessKey', 'PDFSHARE_S3_SECRET_ACCESS_KEY'],
    ] as const
  ).flatMap(([key, env]) => (config[key] === undefined ? [env] : []))
}
