import { createClient } from '@libsql/client'
import { eq } from 'drizzle-orm'
import type { LinkRow } from '../../src/db/tables'
import { randomId } from '../../src/lib/ids'
import type { TestServer } from './harness'

// Share links for the reader tests, written straight into the `links` table rather than through the links
// API (test/api/links.test.ts covers that): the readers' tests need states the API rightly refuses to make,
// an expiry already past and a view count already at its limit, without waiting for them.

export type LinkOptions = {
  label?: string
  /** Plain text: stored as an argon2id hash, as the API stores it. */
  password?: string | null
  expiresAt?: number | null
  maxViews?: number | null
  disabled?: boolean
  allowDownload?: boolean
  searchEngineVisible?: boolean
  views?: number
  access?: 'open' | 'email' | 'verified-email'
  allow?: string[]
  deny?: string[]
  agreement?: string | null
  notify?: 'on' | 'hourly' | 'daily' | 'off'
  /** Origins as they are stored (https://site.example). */
  embedOrigins?: string[]
  /** A watermark template as it is stored (core/links/watermark-template.ts). */
  watermark?: string | null
  /** The language the link fixes (shared/languages.ts). */
  language?: string | null
}

export type TestLink = { id: string; slug: string; path: string }

async function rowOf(fileId: string, options: LinkOptions, now = Date.now()): Promise<Omit<LinkRow, 'seq'>> {
  return {
    id: randomId(),
    fileId,
    roomId: null,
    slug: randomId(),
    isDefault: false,
    label: options.label ?? '',
    allowDownload: options.allowDownload ?? true,
    searchEngineVisible: options.searchEngineVisible ?? false,
    expiresAt: options.expiresAt ?? null,
    maxViews: options.maxViews ?? null,
    passwordHash: options.password ? await Bun.password.hash(options.password, 'argon2id') : null,
    disabled: options.disabled ?? false,
    access: options.access ?? 'open',
    allowReaders: (options.allow ?? []).join('\n'),
    denyReaders: (options.deny ?? []).join('\n'),
    agreement: options.agreement ?? null,
    agreementVersion: options.agreement ? 1 : 0,
    notify: options.notify ?? 'on',
    embedOrigins: (options.embedOrigins ?? []).join('\n'),
    watermark: options.watermark ?? null,
    language: options.language ?? null,
    views: options.views ?? 0,
    createdAt: now,
    updatedAt: now,
  }
}

/** A new (non-default) link to `fileId` in the test app's database; its path is `/s/<slug>` as the app routes it. */
export async function addLink(server: Pick<TestServer, 'ctx'>, fileId: string, options: LinkOptions = {}): Promise<TestLink> {
  const row = await rowOf(fileId, options)
  const { links, agreementTexts } = server.ctx.db.tables
  await server.ctx.db.orm.insert(links).values(row)
  if (row.agreement)
    await server.ctx.db.orm.insert(agreementTexts).values({ linkId: row.id, version: 1, text: row.agreement, createdAt: row.createdAt })
  return { id: row.id, slug: row.slug, path: `/s/${row.slug}` }
}

/** Changes a link's settings as an owner would (a password given in plain text, null clears it). */
export async function changeLink(
  server: Pick<TestServer, 'ctx'>,
  linkId: string,
  options: Omit<LinkOptions, 'views' | 'allow' | 'deny' | 'agreement'>,
): Promise<void> {
  const { password, embedOrigins, ...rest } = options
  if (embedOrigins) Object.assign(rest, { embedOrigins: embedOrigins.join('\n') })
  const passwordHash = password === undefined ? {} : { passwordHash: password ? await Bun.password.hash(password, 'argon2id') : null }
  const { links } = server.ctx.db.tables
  await server.ctx.db.orm
    .update(links)
    .set({ ...rest, ...passwordHash, updatedAt: Date.now() })
    .where(eq(links.id, linkId))
}

/** A link's counted views, as stored. */
export async function linkViews(server: Pick<TestServer, 'ctx'>, linkId: string): Promise<number> {
  const { links } = server.ctx.db.tables
  const [row] = await server.ctx.db.orm.select({ views: links.views }).from(links).where(eq(links.id, linkId))
  return row!.views
}

/**
 * The same for a running binary: the link is written into its database file (`<data>/pdfshare.db`) by
 * another connection, which the server sees at its next lookup (WAL, data_version).
 */
export async function addLinkInDatabase(databasePath: string, fileId: string, options: LinkOptions = {}): Promise<TestLink> {
  const row = await rowOf(fileId, options)
  // The server may be writing at that moment (views, reading): wait for its write lock as the CLI does.
  const client = createClient({ url: `file:${databasePath}`, timeout: 5_000 })
  try {
    await client.execute({
      sql: `INSERT INTO links (id, file_id, slug, is_default, label, allow_download, search_engine_visible, expires_at, max_views,
        password_hash, disabled, views, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        row.id,
        row.fileId,
        row.slug,
        row.label,
        row.allowDownload ? 1 : 0,
        row.searchEngineVisible ? 1 : 0,
        row.expiresAt,
        row.maxViews,
        row.passwordHash,
        row.disabled ? 1 : 0,
        row.views,
        row.createdAt,
        row.updatedAt,
      ],
    })
  } finally {
    client.close()
  }
  return { id: row.id, slug: row.slug, path: `/s/${row.slug}` }
}
