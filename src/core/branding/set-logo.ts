import { prepareLogo } from './logo-image'
import type { AppContext } from '../context'
import { saveBranding } from './save-branding'

/** Checks and re-encodes a new logo (core/branding/logo-image.ts) and keeps it; returns what is served. */
export async function setLogo(ctx: AppContext, bytes: Uint8Array): Promise<{ hash: string; width: number; height: number; bytes: number }> {
  const logo = await prepareLogo(bytes)
  await saveBranding(ctx, { logo })
  return { hash: logo.hash, width: logo.width, height: logo.height, bytes: logo.png.byteLength }
}
