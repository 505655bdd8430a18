import { brandPaths } from './paths'
import type { Branding } from './read-branding'
import { accentWarnings } from './stylesheet'
import type { BrandingDto } from '../../routes/branding/model'

/** The branding as the Admin page and the API show it. */
export function toBrandingDto(branding: Branding, basePath: string): BrandingDto {
  const paths = brandPaths(basePath)
  const { logo, style } = branding
  return {
    name: branding.name,
    accent: branding.accent,
    accentDark: style?.darkShade ?? null,
    hidePdfshare: branding.hidePdfshare,
    logo: logo && { url: paths.logo(logo.hash), width: logo.width, height: logo.height, bytes: logo.bytes },
    stylesheet: style && paths.stylesheet(style.version),
    fromSettings: branding.fromSettings,
    warnings: branding.accent ? accentWarnings(branding.accent) : [],
    updatedAt: branding.updatedAt === null ? null : new Date(branding.updatedAt).toISOString(),
  }
}
