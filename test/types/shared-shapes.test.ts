import { expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expectTypeOf } from 'expect-type'
import type { Static } from 'elysia'
import type * as AuthModel from '../../src/modules/auth/model'
import type { FileDto as ServerFileDto, ListQuery, VersionDto as ServerVersionDto } from '../../src/modules/files/model'
import type { LinkDto as ServerLinkDto } from '../../src/modules/links/model'
import type { IssuedTokenDto, MeDto, SignInDto, TokenDto } from '../../src/shared/account-shapes'
import type { FileDto, ListOrder, VersionDto } from '../../src/shared/file-shapes'
import type { LinkDto } from '../../src/shared/link-shapes'
import type * as AnalyticsModel from '../../src/modules/analytics/model'
import type * as WebhooksModel from '../../src/modules/webhooks/model'
import type { AnalyticsDto, VisitDto } from '../../src/shared/analytics-shapes'
import type { DeliveryDto, NewWebhookDto, WebhookDto } from '../../src/shared/webhook-shapes'

const SHARED = join(import.meta.dir, '..', '..', 'src', 'shared')

test('src/shared is safe to bundle into the dashboard: it imports only its own files and uses no Bun or Node API', () => {
  const files = readdirSync(SHARED).filter((name) => name.endsWith('.ts'))
  expect(files.length).toBeGreaterThan(0)
  for (const name of files) {
    const source = readFileSync(join(SHARED, name), 'utf8')
    const imports = [...source.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g)].map((match) => match[1] ?? match[2])
    expect({ name, imports: imports.filter((path) => !path?.startsWith('./')) }).toEqual({ name, imports: [] })
    expect({ name, runtime: /\b(Bun|process|require)\b[.(]/.test(source) }).toEqual({ name, runtime: false })
  }
})

// Checked by `bun run typecheck`: the shapes the dashboard reads are exactly the ones the server's schemas produce.
test('the shared types are the types of the server schemas', () => {
  expectTypeOf<FileDto>().toEqualTypeOf<ServerFileDto>()
  expectTypeOf<VersionDto>().toEqualTypeOf<ServerVersionDto>()
  expectTypeOf<LinkDto>().toEqualTypeOf<ServerLinkDto>()
  expectTypeOf<NonNullable<Static<typeof ListQuery>['order']>>().toEqualTypeOf<ListOrder>()
  expectTypeOf<MeDto>().toEqualTypeOf<AuthModel.MeDto>()
  expectTypeOf<TokenDto>().toEqualTypeOf<AuthModel.TokenDto>()
  expectTypeOf<IssuedTokenDto>().toEqualTypeOf<AuthModel.IssuedTokenDto>()
  expectTypeOf<SignInDto>().toEqualTypeOf<AuthModel.SignInDto>()
  expectTypeOf<WebhookDto>().toEqualTypeOf<WebhooksModel.WebhookDto>()
  expectTypeOf<NewWebhookDto>().toEqualTypeOf<WebhooksModel.NewWebhookDto>()
  expectTypeOf<DeliveryDto>().toEqualTypeOf<WebhooksModel.DeliveryDto>()
  expectTypeOf<AnalyticsDto>().toEqualTypeOf<AnalyticsModel.AnalyticsDto>()
  expectTypeOf<VisitDto>().toEqualTypeOf<AnalyticsModel.VisitDto>()
})
