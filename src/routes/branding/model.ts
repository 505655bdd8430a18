import { t, type Static } from 'elysia'
import { withRule } from '../../http/rule-schema'
import { oneOf } from '../../http/schemas'
import { BRAND_FIELDS, BRAND_LIMITS } from '../../shared/branding-shapes'
import { accentRule, nameRule } from '../../core/branding/rules'

/**
 * The branding's shapes (docs/api.md, Branding), written once: routes, OpenAPI document and dashboard types.
 * Each field is what pages show: the Admin page's value, else the server's setting (PDFSHARE_BRAND_*).
 */
export const BrandingSchema = t.Object(
  {
    name: t.Union([t.String(), t.Null()], { description: 'The instance name beside the logo; null: none' }),
    accent: t.Union([t.String(), t.Null()], { description: "#rrggbb; null: pdfshare's own colours" }),
    accentDark: t.Union([t.String(), t.Null()], {
      description: 'The shade dark mode shows: the accent, lightened where it would not stand out on the dark page',
    }),
    hidePdfshare: t.Boolean({ description: 'Share pages name pdfshare nowhere (link previews, icon)' }),
    logo: t.Union(
      [
        t.Object({
          url: t.String({ description: 'Where it is served (a new logo has a new address)' }),
          width: t.Integer(),
          height: t.Integer(),
          bytes: t.Integer({ description: 'The size of the PNG that is served' }),
        }),
        t.Null(),
      ],
      { description: 'The logo as served: a PNG of at most 720×144; null: none' },
    ),
    stylesheet: t.Union([t.String(), t.Null()], { description: "The accent's stylesheet, as pages link it; null: no accent" }),
    fromSettings: t.Array(oneOf(BRAND_FIELDS), {
      description: "The fields the Admin page has not set: theirs is the server's setting (PDFSHARE_BRAND_*), which may be none",
    }),
    warnings: t.Array(t.String(), { description: 'What stands out too little, e.g. an accent on white pages' }),
    updatedAt: t.Union([t.String(), t.Null()], { description: 'When the Admin page last changed it; null: never' }),
  },
  { title: 'Branding' },
)
export type BrandingDto = Static<typeof BrandingSchema>

/** PATCH /api/admin/branding: what to change; omitted fields stay, null goes back to the setting. Unknown fields are ignored. */
export const BrandingChange = t.Object(
  {
    name: t.Optional(
      withRule(
        t.Union([t.String({ maxLength: BRAND_LIMITS.name + 40 }), t.Null()], {
          description: `At most ${BRAND_LIMITS.name} characters; "" shows no name; null: the server's setting`,
        }),
        nameRule,
      ),
    ),
    accent: t.Optional(
      withRule(
        t.Union([t.String({ pattern: '^\\s*#[0-9a-fA-F]{6}\\s*$' }), t.Null()], { description: "#rrggbb; null: the server's setting" }),
        accentRule,
      ),
    ),
    hidePdfshare: t.Optional(
      t.Union([t.Boolean(), t.Null()], {
        description: "Name pdfshare nowhere on share pages; null: the server's setting",
        error: () => 'hidePdfshare must be true or false, or null for the server’s setting',
      }),
    ),
  },
  { additionalProperties: true, error: () => 'The JSON body must be an object, e.g. {"name": "Acme Legal", "accent": "#0b6e4f"}' },
)

export const BrandingEnvelope = t.Object({ success: t.Literal(true), data: BrandingSchema })
