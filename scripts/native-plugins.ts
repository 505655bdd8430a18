/**
 * Build plugins that make the native parts of our dependencies work inside `bun build --compile`.
 * Both exist because a package picks its native file at run time, which the bundler cannot follow.
 */
import type { BunPlugin } from 'bun'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dir, '..')

/**
 * libsql's loader does `require(\`@libsql/${target}\`)`; a naive binary then fails elsewhere with "Cannot find
 * module '@libsql/linux-x64-gnu'". The plugin makes the require static for the build machine's platform (or,
 * cross-compiling, names the other platform's package folder, scripts/native-packages.ts); Bun embeds the .node
 * file and extracts it when the binary starts.
 */
export function libsqlNativeAddon(packageDir?: string): BunPlugin {
  const target = packageDir ? join(packageDir, 'index.node') : `@libsql/${platformTriple()}`
  return {
    name: 'libsql-native-addon',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/](index|promise)\.js$/ }, async ({ path }) => {
        const source = await Bun.file(path).text()
        const dynamic = /require\(`@libsql\/\$\{target\}`\)/g
        if (!dynamic.test(source)) throw new Error(`libsql's loader changed; update scripts/native-plugins.ts (${path})`)
        return { contents: source.replace(dynamic, `require(${JSON.stringify(target)})`), loader: 'js' }
      })
    },
  }
}

/**
 * sharp's loader resolves its addon through createRequire at run time, and the addon finds libvips through an
 * RPATH relative to itself ($ORIGIN/../../sharp-libvips-<platform>/lib). The replacement loader embeds both
 * files and, on first use, copies them into a fresh private temp dir in that layout, then loads the addon.
 */
export function sharpNativeAddon(cross?: { platform: string; sharpDir: string; libvipsDir: string }): BunPlugin {
  const platform = cross?.platform ?? `${process.platform}${isMusl() ? 'musl' : ''}-${process.arch}`
  const addonDir = join(cross?.sharpDir ?? join(root, 'node_modules', '@img', `sharp-${platform}`), 'lib')
  const vipsDir = join(cross?.libvipsDir ?? join(root, 'node_modules', '@img', `sharp-libvips-${platform}`), 'lib')
  return {
    name: 'sharp-native-addon',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]sharp[\\/]dist[\\/]sharp\.mjs$/ }, () => {
        const addon = readdirSync(addonDir).find((name) => name.endsWith('.node'))
        const vips = readdirSync(vipsDir).find((name) => name.startsWith('libvips-cpp.so'))
        if (!addon || !vips || !existsSync(join(addonDir, addon))) throw new Error(`sharp's native files for ${platform} are not installed`)
        const contents = `
import { createRequire } from 'node:module'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import addonFile from ${JSON.stringify(join(addonDir, addon))} with { type: 'file' }
import vipsFile from ${JSON.stringify(join(vipsDir, vips))} with { type: 'file' }

// The server hands its preview renderers one private folder (PDFSHARE_SHARP_DIR): a renderer may be killed at
// any moment, and a folder of its own would then stay behind in the temp dir. Anything else extracts into a
// folder of its own and removes it at exit.
const shared = process.env.PDFSHARE_SHARP_DIR
const base = shared || mkdtempSync(join(tmpdir(), 'pdfshare-sharp-'))
if (!shared) process.once('exit', () => rmSync(base, { recursive: true, force: true }))
const addonTarget = join(base, '@img', ${JSON.stringify(`sharp-${platform}`)}, 'lib')
const vipsTarget = join(base, '@img', ${JSON.stringify(`sharp-libvips-${platform}`)}, 'lib')
mkdirSync(addonTarget, { recursive: true, mode: 0o700 })
mkdirSync(vipsTarget, { recursive: true, mode: 0o700 })
// Embedded files are read through Bun's virtual filesystem (copyFile cannot reach it); mode 0700 dir, 0600 files.
// Written under a temporary name and renamed, so a renderer never loads a half-written library of another.
const place = (target, embedded) => {
  if (existsSync(target)) return
  const temp = target + '.' + process.pid + '.tmp'
  writeFileSync(temp, readFileSync(embedded), { mode: 0o600 })
  renameSync(temp, target)
}
place(join(vipsTarget, ${JSON.stringify(vips)}), vipsFile)
place(join(addonTarget, ${JSON.stringify(addon)}), addonFile)
const sharp = createRequire(import.meta.url)(join(addonTarget, ${JSON.stringify(addon)}))
export default sharp
`
        return { contents, loader: 'js' }
      })
    },
  }
}

function isMusl(): boolean {
  if (process.platform !== 'linux') return false
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined
  return !report?.header?.glibcVersionRuntime
}

/** The @libsql/* package suffix for this machine, e.g. linux-x64-gnu or darwin-arm64. */
function platformTriple(): string {
  if (process.platform === 'darwin') return `darwin-${process.arch}`
  if (process.platform === 'win32') return `win32-${process.arch}-msvc`
  return `${process.platform}-${process.arch}-${isMusl() ? 'musl' : 'gnu'}`
}
