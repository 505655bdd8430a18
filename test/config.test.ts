import { describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../src/cli'
import { ConfigError, loadConfig, SETTINGS, unknownEnvSettings } from '../src/config'

const load = (flags: Parameters<typeof loadConfig>[0] = {}, env: Record<string, string> = {}) => loadConfig(flags, env, '/srv/app')

describe('loadConfig', () => {
  test('defaults', () => {
    expect(load()).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir: '/srv/app/data',
      publicUrl: 'http://localhost:3000',
      databaseUrl: 'file:/srv/app/data/pdfshare.db',
      migrateTo: undefined,
      jwtSecret: undefined,
      maxFileSize: 104857600,
      maxVersions: 5,
      rateLimitApi: 600,
      rateLimitShare: 600,
      rateLimitPageDraws: 120,
      idleTimeout: 30,
      trustProxyHops: 0,
      metricsToken: undefined,
      maxUploads: 16,
      maxUploadsPerUser: 4,
      minFreeDisk: 134217728,
      shutdownTimeout: 30,
      sessionTtl: 43200,
      recentSignIn: 600,
      rateLimitLogin: 10,
      previewTimeout: 5,
      previewMemory: 536870912,
      previewNice: 10,
      drawAhead: true,
      searchIndex: true,
      pageCacheSize: 1073741824,
      maxTokensPerUser: 100,
      uploadMinRate: 16 * 1024,
      uploadTimeout: 3600,
      clamd: undefined,
      clamdFailOpen: false,
      clamdTimeout: 60,
      maxViewsPerAddress: 20,
      linkDefaultExpiry: null,
      linkMaxExpiry: null,
      linkRequirePassword: false,
      webhookConcurrency: 4,
      webhookTimeout: 10,
      webhookAllowPrivate: false,
      analyticsRetention: 365,
      auditRetention: 365,
      idempotencyTtl: 86_400,
      passwordSignIn: true,
      oidcIssuer: undefined,
      oidcClientId: undefined,
      oidcClientSecret: undefined,
      oidcName: 'SSO',
      oidcAllowedDomains: [],
      oidcAdminGroup: undefined,
      oidcTeamGroups: [],
      authProxyHeader: undefined,
      authProxyAddresses: [],
      authProxySecret: undefined,
      smtpUrl: undefined,
      mailFrom: undefined,
      storage: 'local',
      s3Endpoint: undefined,
      s3Bucket: undefined,
      s3Region: 'us-east-1',
      s3AccessKeyId: undefined,
      s3SecretAccessKey: undefined,
      s3PathStyle: true,
      s3ConnectTimeout: 5,
      s3IdleTimeout: 30,
      s3CopiesSize: 1073741824,
      brandName: undefined,
      brandAccent: undefined,
      brandLogo: undefined,
      brandHidePdfshare: false,
      defaultLanguage: 'en',
    })
  })

  test('S3 storage: its settings read, and every one it needs is named when missing', () => {
    const s3 = {
      PDFSHARE_STORAGE: 'S3',
      PDFSHARE_S3_ENDPOINT: 'http://127.0.0.1:7480/',
      PDFSHARE_S3_BUCKET: 'pdfs',
      PDFSHARE_S3_ACCESS_KEY_ID: 'AKIA',
      PDFSHARE_S3_SECRET_ACCESS_KEY: 'secret',
      PDFSHARE_S3_PATH_STYLE: 'no',
    }
    expect(load({}, s3)).toMatchObject({
      storage: 's3',
      s3Endpoint: 'http://127.0.0.1:7480',
      s3Bucket: 'pdfs',
      s3Region: 'us-east-1',
      s3AccessKeyId: 'AKIA',
      s3SecretAccessKey: 'secret',
      s3PathStyle: false,
    })
    expect(() => load({}, { PDFSHARE_STORAGE: 's3', PDFSHARE_S3_BUCKET: 'pdfs' })).toThrow(
      new ConfigError('PDFSHARE_STORAGE=s3 needs PDFSHARE_S3_ENDPOINT, PDFSHARE_S3_ACCESS_KEY_ID, PDFSHARE_S3_SECRET_ACCESS_KEY (not set)'),
    )
    expect(() => load({}, { PDFSHARE_STORAGE: 'gcs' })).toThrow(new ConfigError('invalid PDFSHARE_STORAGE "gcs": must be local or s3'))
    expect(() => load({}, { ...s3, PDFSHARE_S3_ENDPOINT: 's3.example.com' })).toThrow(ConfigError)
    // Without PDFSHARE_STORAGE=s3 the S3 settings are not needed.
    expect(load({}, { PDFSHARE_S3_BUCKET: 'pdfs' }).storage).toBe('local')
  })

  test('share-link policy: durations in seconds or none, a boolean, and the default expiry within the maximum', () => {
    expect(
      load({}, { PDFSHARE_LINK_DEFAULT_EXPIRY: '12h', PDFSHARE_LINK_MAX_EXPIRY: '7d', PDFSHARE_LINK_REQUIRE_PASSWORD: 'yes' }),
    ).toMatchObject({ linkDefaultExpiry: 43_200, linkMaxExpiry: 604_800, linkRequirePassword: true })
    expect(load({}, { PDFSHARE_LINK_DEFAULT_EXPIRY: '30m', PDFSHARE_LINK_MAX_EXPIRY: 'none' })).toMatchObject({
      linkDefaultExpiry: 1800,
      linkMaxExpiry: null,
    })
    expect(() => load({}, { PDFSHARE_LINK_DEFAULT_EXPIRY: 'soon' })).toThrow(
      'invalid PDFSHARE_LINK_DEFAULT_EXPIRY "soon": must be a duration from 1m to 100y such as 30m, 12h, 7d or 2w, or none',
    )
    expect(() => load({}, { PDFSHARE_LINK_MAX_EXPIRY: '7' })).toThrow('invalid PDFSHARE_LINK_MAX_EXPIRY "7"')
    expect(() => load({}, { PDFSHARE_LINK_MAX_EXPIRY: '10s' })).toThrow('invalid PDFSHARE_LINK_MAX_EXPIRY "10s"')
    expect(() => load({}, { PDFSHARE_LINK_REQUIRE_PASSWORD: 'maybe' })).toThrow(
      'invalid PDFSHARE_LINK_REQUIRE_PASSWORD "maybe": must be one of true, false, 1, 0, yes, no, on, off',
    )
    expect(() => load({}, { PDFSHARE_LINK_DEFAULT_EXPIRY: '30d', PDFSHARE_LINK_MAX_EXPIRY: '1w' })).toThrow(
      new ConfigError('PDFSHARE_LINK_DEFAULT_EXPIRY (30d) must not be longer than PDFSHARE_LINK_MAX_EXPIRY (1w)'),
    )
  })

  test('PDFSHARE_OIDC_TEAM_GROUPS: GROUP=TEAM_ID:ROLE entries or a JSON list; anything else stops start-up, saying the form', () => {
    expect(load({}, { PDFSHARE_OIDC_TEAM_GROUPS: 'sales=T1:editor, cn=x=T2:viewer' }).oidcTeamGroups).toEqual([
      { group: 'sales', teamId: 'T1', role: 'editor' },
      { group: 'cn=x', teamId: 'T2', role: 'viewer' },
    ])
    expect(load({}, { PDFSHARE_OIDC_TEAM_GROUPS: '[{"group":"cn=a,ou=g","team":"T1","role":"owner"}]' }).oidcTeamGroups).toEqual([
      { group: 'cn=a,ou=g', teamId: 'T1', role: 'owner' },
    ])
    for (const bad of ['sales=T1', 'sales=T1:admin', '=T1:viewer', 'sales=T 1:viewer', '[{"group":"a","team":"T1"}]', '[oops']) {
      expect(() => load({}, { PDFSHARE_OIDC_TEAM_GROUPS: bad })).toThrow(
        `invalid PDFSHARE_OIDC_TEAM_GROUPS ${JSON.stringify(bad)}: must be GROUP=TEAM_ID:ROLE entries`,
      )
    }
  })

  test('PDFSHARE_MAX_VERSIONS: 0 to 100 previous PDFs a file; anything else stops start-up', () => {
    expect(load({}, { PDFSHARE_MAX_VERSIONS: '0' }).maxVersions).toBe(0)
    expect(load({}, { PDFSHARE_MAX_VERSIONS: '100' }).maxVersions).toBe(100)
    for (const bad of ['-1', '101', '2.5', 'many']) {
      expect(() => load({}, { PDFSHARE_MAX_VERSIONS: bad })).toThrow(ConfigError)
    }
  })

  test('preview settings: a render time limit in seconds, a renderer memory cap from 128MB, a nice value', () => {
    expect(load({}, { PDFSHARE_PREVIEW_TIMEOUT: '2', PDFSHARE_PREVIEW_MEMORY: '1GB', PDFSHARE_PREVIEW_NICE: '0' })).toMatchObject({
      previewTimeout: 2,
      previewMemory: 1024 ** 3,
      previewNice: 0,
    })
    for (const bad of ['-1', '20', 'low']) expect(() => load({}, { PDFSHARE_PREVIEW_NICE: bad })).toThrow('PDFSHARE_PREVIEW_NICE')
    for (const bad of ['0', '301', '1.5', 'soon']) {
      expect(() => load({}, { PDFSHARE_PREVIEW_TIMEOUT: bad })).toThrow(
        `invalid PDFSHARE_PREVIEW_TIMEOUT ${JSON.stringify(bad)}: must be a number of seconds from 1 to 300`,
      )
    }
    for (const bad of ['64MB', '65GB', 'lots']) {
      expect(() => load({}, { PDFSHARE_PREVIEW_MEMORY: bad })).toThrow(
        `invalid PDFSHARE_PREVIEW_MEMORY ${JSON.stringify(bad)}: must be a size from 128MB to 64GB (e.g. 512MB)`,
      )
    }
  })

  test('abuse limits: tokens per user, upload pace, views per address', () => {
    expect(
      load(
        {},
        {
          PDFSHARE_MAX_TOKENS_PER_USER: '5',
          PDFSHARE_UPLOAD_MIN_RATE: '1KB',
          PDFSHARE_UPLOAD_TIMEOUT: '120',
          PDFSHARE_MAX_VIEWS_PER_ADDRESS: '0',
        },
      ),
    ).toMatchObject({ maxTokensPerUser: 5, uploadMinRate: 1024, uploadTimeout: 120, maxViewsPerAddress: 0 })
    expect(load({}, { PDFSHARE_UPLOAD_MIN_RATE: '0' }).uploadMinRate).toBe(0)
    for (const [name, value] of [
      ['PDFSHARE_MAX_TOKENS_PER_USER', '0'],
      ['PDFSHARE_MAX_TOKENS_PER_USER', 'many'],
      ['PDFSHARE_UPLOAD_MIN_RATE', 'fast'],
      ['PDFSHARE_UPLOAD_MIN_RATE', '2GB'],
      ['PDFSHARE_UPLOAD_TIMEOUT', '0'],
      ['PDFSHARE_UPLOAD_TIMEOUT', '1h'],
      ['PDFSHARE_MAX_VIEWS_PER_ADDRESS', '-1'],
    ] as const) {
      expect(() => load({}, { [name]: value })).toThrow(`invalid ${name} ${JSON.stringify(value)}: must be`)
    }
    expect(
      unknownEnvSettings({
        PDFSHARE_MAX_TOKENS_PER_USER: '1',
        PDFSHARE_UPLOAD_MIN_RATE: '1',
        PDFSHARE_UPLOAD_TIMEOUT: '1',
        PDFSHARE_MAX_VIEWS_PER_ADDRESS: '1',
      }),
    ).toEqual([])
  })

  test('clamd: a Unix socket or a TCP address, fail-open a boolean, the timeout in seconds', () => {
    expect(load({}, { PDFSHARE_CLAMD: 'unix:/run/clamav/clamd.ctl' })).toMatchObject({
      clamd: { path: '/run/clamav/clamd.ctl' },
      clamdFailOpen: false,
      clamdTimeout: 60,
    })
    expect(
      load({}, { PDFSHARE_CLAMD: ' tcp://clamav.internal:3310 ', PDFSHARE_CLAMD_FAIL_OPEN: 'yes', PDFSHARE_CLAMD_TIMEOUT: '5' }),
    ).toMatchObject({
      clamd: { host: 'clamav.internal', port: 3310 },
      clamdFailOpen: true,
      clamdTimeout: 5,
    })
    expect(load({}, { PDFSHARE_CLAMD: 'tcp://[::1]:3310' }).clamd).toEqual({ host: '::1', port: 3310 })
    for (const bad of [
      'unix:clamd.sock',
      'tcp://clamav',
      'tcp://clamav:0',
      'tcp://clamav:3310/scan',
      'http://clamav:3310',
      '/run/clamd.ctl',
    ]) {
      expect(() => load({}, { PDFSHARE_CLAMD: bad })).toThrow(
        `invalid PDFSHARE_CLAMD ${JSON.stringify(bad)}: must be unix:/path/to/clamd.sock (an absolute path) or tcp://host:3310`,
      )
    }
    expect(() => load({}, { PDFSHARE_CLAMD_FAIL_OPEN: 'maybe' })).toThrow('invalid PDFSHARE_CLAMD_FAIL_OPEN "maybe"')
    expect(() => load({}, { PDFSHARE_CLAMD_TIMEOUT: '0' })).toThrow(
      'invalid PDFSHARE_CLAMD_TIMEOUT "0": must be a number of seconds from 1 to 3600',
    )
  })

  test('sign-in settings: a session lifetime from 5m to 30d, attempts per minute, how recent a sign-in must be', () => {
    expect(load({}, { PDFSHARE_SESSION_TTL: '2h', PDFSHARE_RATE_LIMIT_LOGIN: '0' })).toMatchObject({ sessionTtl: 7200, rateLimitLogin: 0 })
    for (const bad of ['never', '1m', '31d', 'soon']) {
      expect(() => load({}, { PDFSHARE_SESSION_TTL: bad })).toThrow(
        `invalid PDFSHARE_SESSION_TTL ${JSON.stringify(bad)}: must be a lifetime from 5m to 30d, e.g. 12h`,
      )
    }
    expect(load({}, {})).toMatchObject({ recentSignIn: 600 })
    expect(load({}, { PDFSHARE_RECENT_SIGN_IN: '30m' })).toMatchObject({ recentSignIn: 1800 })
    for (const bad of ['never', '30s', '2d']) {
      expect(() => load({}, { PDFSHARE_RECENT_SIGN_IN: bad })).toThrow(
        `invalid PDFSHARE_RECENT_SIGN_IN ${JSON.stringify(bad)}: must be a lifetime from 1m to 1d, e.g. 10m`,
      )
    }
  })

  test('authenticating proxy: the header needs the addresses (no default); the secret needs the header, quietly', () => {
    const header = { PDFSHARE_AUTH_PROXY_HEADER: 'Remote-User' }
    expect(() => load({}, header)).toThrow('PDFSHARE_AUTH_PROXY_HEADER needs PDFSHARE_AUTH_PROXY_ADDRESSES')
    expect(load({}, { ...header, PDFSHARE_AUTH_PROXY_ADDRESSES: '10.0.0.5' })).toMatchObject({ authProxyAddresses: ['10.0.0.5'] })
    expect(() => load({}, { PDFSHARE_AUTH_PROXY_SECRET: 'sixteen bytes at least' })).toThrow(
      'PDFSHARE_AUTH_PROXY_SECRET is set, but PDFSHARE_AUTH_PROXY_HEADER is not',
    )
    const full = { ...header, PDFSHARE_AUTH_PROXY_ADDRESSES: '10.0.0.5' }
    expect(load({}, { ...full, PDFSHARE_AUTH_PROXY_SECRET: 'sixteen bytes at least' }).authProxySecret).toBe('sixteen bytes at least')
    expect(() => load({}, { ...full, PDFSHARE_AUTH_PROXY_SECRET: 'short secret' })).toThrow(
      new ConfigError('invalid PDFSHARE_AUTH_PROXY_SECRET: must be at least 16 bytes long (for example: openssl rand -hex 16)'),
    )
  })

  test('flags beat env, env beats defaults', () => {
    const env = {
      PDFSHARE_PORT: '4000',
      PDFSHARE_HOST: '127.0.0.1',
      PDFSHARE_DATA_DIR: '/var/lib/pdfshare',
      PDFSHARE_PUBLIC_URL: 'https://env.example',
    }
    expect(load({}, env)).toMatchObject({ port: 4000, host: '127.0.0.1', dataDir: '/var/lib/pdfshare', publicUrl: 'https://env.example' })
    expect(load({ port: '5000', data: 'rel', 'public-url': 'https://flag.example/prefix/' }, env)).toMatchObject({
      port: 5000,
      dataDir: '/srv/app/rel',
      publicUrl: 'https://flag.example/prefix',
      host: '127.0.0.1',
    })
    expect(load({ port: '5000' }).publicUrl).toBe('http://localhost:5000')
  })

  test('env-only settings', () => {
    const config = load(
      {},
      {
        PDFSHARE_JWT_SECRET: 's'.repeat(32),
        PDFSHARE_MAX_FILE_SIZE: '20MB',
        PDFSHARE_RATE_LIMIT_API: '0',
        PDFSHARE_RATE_LIMIT_SHARE: '100',
        PDFSHARE_DATABASE_URL: 'libsql://db.example.turso.io',
      },
    )
    expect(config).toMatchObject({
      jwtSecret: 's'.repeat(32),
      maxFileSize: 20 * 1024 * 1024,
      rateLimitApi: 0,
      rateLimitShare: 100,
      databaseUrl: 'libsql://db.example.turso.io',
    })
  })

  test('branding: a name, a #rrggbb accent, a logo file checked by its first bytes, a boolean', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pdfshare-config-'))
    try {
      writeFileSync(join(dir, 'logo.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))
      writeFileSync(join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
      writeFileSync(join(dir, 'huge.png'), Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(1024 * 1024)]))
      const config = loadConfig(
        {},
        {
          PDFSHARE_BRAND_NAME: '  Acme Legal ',
          PDFSHARE_BRAND_ACCENT: '#0B6E4F',
          PDFSHARE_BRAND_LOGO: 'logo.png',
          PDFSHARE_BRAND_HIDE_PDFSHARE: 'yes',
        },
        dir,
      )
      expect(config).toMatchObject({
        brandName: 'Acme Legal',
        brandAccent: '#0b6e4f',
        brandLogo: join(dir, 'logo.png'),
        brandHidePdfshare: true,
      })
      const refused = (env: Record<string, string>) => {
        try {
          loadConfig({}, env, dir)
        } catch (error) {
          return (error as Error).message
        }
        return 'accepted'
      }
      const LOGO_RULE = 'must be the path of a PNG, JPEG or WebP image of at most 1 MB (SVG: convert it to PNG)'
      expect(refused({ PDFSHARE_BRAND_LOGO: 'logo.svg' })).toBe(`invalid PDFSHARE_BRAND_LOGO "logo.svg": ${LOGO_RULE}`)
      expect(refused({ PDFSHARE_BRAND_LOGO: 'huge.png' })).toBe(`invalid PDFSHARE_BRAND_LOGO "huge.png": ${LOGO_RULE}`)
      expect(refused({ PDFSHARE_BRAND_LOGO: 'missing.png' })).toBe(`invalid PDFSHARE_BRAND_LOGO "missing.png": ${LOGO_RULE}`)
      expect(refused({ PDFSHARE_BRAND_ACCENT: 'teal' })).toBe(
        'invalid PDFSHARE_BRAND_ACCENT "teal": must be a colour written #rrggbb, e.g. #0b6e4f',
      )
      expect(refused({ PDFSHARE_BRAND_ACCENT: '#0b6' })).toContain('invalid PDFSHARE_BRAND_ACCENT')
      expect(refused({ PDFSHARE_BRAND_NAME: 'x'.repeat(61) })).toContain('must be 1 to 60 characters')
      expect(refused({ PDFSHARE_BRAND_NAME: 'Acme\u202Eevil' })).toContain('invalid PDFSHARE_BRAND_NAME')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  const invalid: [string, Parameters<typeof loadConfig>[0], Record<string, string>, string][] = [
    ['port not a number', { port: 'abc' }, {}, 'invalid --port "abc"'],
    ['port out of range', {}, { PDFSHARE_PORT: '70000' }, 'invalid PDFSHARE_PORT "70000"'],
    ['public URL not a URL', { 'public-url': 'example.com' }, {}, 'invalid --public-url'],
    ['public URL with a query', { 'public-url': 'https://x.test/?a=1' }, {}, 'without credentials, query or fragment'],
    ['public URL ftp', {}, { PDFSHARE_PUBLIC_URL: 'ftp://x.test' }, 'invalid PDFSHARE_PUBLIC_URL'],
    ['short secret', {}, { PDFSHARE_JWT_SECRET: 'short' }, 'at least 32 bytes'],
    ['cap above 100 MB', {}, { PDFSHARE_MAX_FILE_SIZE: '200MB' }, 'invalid PDFSHARE_MAX_FILE_SIZE'],
    ['cap not a size', {}, { PDFSHARE_MAX_FILE_SIZE: 'big' }, 'invalid PDFSHARE_MAX_FILE_SIZE'],
    ['negative rate limit', {}, { PDFSHARE_RATE_LIMIT_API: '-1' }, 'invalid PDFSHARE_RATE_LIMIT_API'],
    ['database URL scheme', {}, { PDFSHARE_DATABASE_URL: 'mysql://x' }, 'invalid PDFSHARE_DATABASE_URL'],
    ['PostgreSQL URL that is not a URL', {}, { PDFSHARE_DATABASE_URL: 'postgres://a b' }, 'invalid PDFSHARE_DATABASE_URL'],
  ]
  for (const [name, flags, env, message] of invalid) {
    test(`refuses ${name} with one clear line`, () => {
      expect(() => load(flags, env)).toThrow(ConfigError)
      try {
        load(flags, env)
      } catch (error) {
        expect((error as Error).message).toContain(message)
        expect((error as Error).message).not.toContain('\n')
      }
    })
  }

  test('a URL that cannot be used is named without its password', () => {
    for (const url of ['postgres://bob:s3cr3t@[bad', 'mysql://bob:s3cr3t@db.example.test/x', 'postgres://bob:pa@ss@[x']) {
      let message = ''
      try {
        load({}, { PDFSHARE_DATABASE_URL: url })
      } catch (error) {
        message = (error as Error).message
      }
      expect(message).toContain('invalid PDFSHARE_DATABASE_URL "')
      expect(message).toContain('bob:***@')
      expect(message).not.toContain('s3cr3t')
      expect(message).not.toContain('pa@ss')
    }
    expect(() => load({}, { PDFSHARE_MIGRATE_TO: 'postgres://bob:s3cr3t@[bad' })).toThrow(/^invalid PDFSHARE_MIGRATE_TO: must be/)
  })

  test('unknown PDFSHARE_ variables are reported (likely typos)', () => {
    expect(unknownEnvSettings({ PDFSHARE_PROT: '1', PDFSHARE_PORT: '2', HOME: '/root' })).toEqual(['PDFSHARE_PROT'])
  })
})

describe('the table of settings', () => {
  const entries = Object.values(SETTINGS)
  const shown = (entry: (typeof entries)[number]) => (typeof entry.default === 'string' ? entry.default : entry.default.shown)

  test("the README's Settings table has every setting, with its flag and default, and no other", () => {
    const readme = readFileSync(join(import.meta.dir, '../docs/operations.md'), 'utf8')
    const section = readme.slice(readme.indexOf('\n## Settings\n'), readme.indexOf('\n## ', readme.indexOf('\n## Settings\n') + 1))
    const rows = [...section.matchAll(/^\| *(`--[a-z-]+`)? *\| `(PDFSHARE_[A-Z0-9_]+)` \| ([^|]+?) \|/gm)].map(([, flag, env, value]) => ({
      flag: flag?.replaceAll('`', '') ?? '',
      env,
      default: value!.replaceAll('`', ''),
    }))
    const table = entries.map((entry) => ({ flag: entry.flag ? `--${entry.flag.name}` : '', env: entry.env, default: shown(entry) }))
    expect(rows.toSorted((a, b) => a.env!.localeCompare(b.env!))).toEqual(table.toSorted((a, b) => a.env.localeCompare(b.env)))
  })

  test('--help lists every setting with its flag and default', async () => {
    let out = ''
    expect(
      await runCli(
        ['--help'],
        {},
        {
          out: (text) => {
            out += text
          },
          err: () => {},
        },
      ),
    ).toBe(0)
    for (const entry of entries) {
      const names = entry.flag ? `--${entry.flag.name} ${entry.flag.arg}, ${entry.env}` : entry.env
      expect(out).toContain(`${names}  (default ${shown(entry)})\n`)
    }
  })
})

describe('PDFSHARE_DEFAULT_LANGUAGE', () => {
  test('takes one of the twelve tags in any case, and stops the start on any other value', () => {
    expect(load({}, { PDFSHARE_DEFAULT_LANGUAGE: 'de' }).defaultLanguage).toBe('de')
    expect(load({}, { PDFSHARE_DEFAULT_LANGUAGE: ' pt-br ' }).defaultLanguage).toBe('pt-BR')
    expect(load({}, { PDFSHARE_DEFAULT_LANGUAGE: 'zh-hans' }).defaultLanguage).toBe('zh-Hans')
    expect(() => load({}, { PDFSHARE_DEFAULT_LANGUAGE: 'klingon' })).toThrow(
      'invalid PDFSHARE_DEFAULT_LANGUAGE "klingon": must be one of en, de, fr, es, it, pt-BR, nl, pl, ja, zh-Hans, ar, uk',
    )
  })
})
