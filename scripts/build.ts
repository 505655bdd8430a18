/**
 * `bun run build` → dist/pdfshare: one executable with everything embedded (code as bytecode, migrations,
 * the libSQL and sharp native parts, the PDFium wasm, the built viewer and the pdf.js assets), for the machine
 * it is built on. It must run from an empty directory on a machine without node_modules.
 *
 * `bun run build:arm64` (`--target=linux-arm64`) → dist/pdfshare-linux-arm64, the same for 64-bit ARM Linux
 * (glibc): Bun cross-compiles the code, and the arm64 native packages are fetched at the versions bun.lock pins
 * (scripts/native-packages.ts).
 */
import { mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { BunPlugin } from 'bun'
import { buildViewer } from './build-viewer'
import { LINUX_ARM64, type NativeTarget, nativePackages } from './native-packages'
import { libsqlNativeAddon, sharpNativeAddon } from './native-plugins'

const root = join(import.meta.dir, '..')
const TARGETS: Record<string, NativeTarget> = { 'linux-arm64': LINUX_ARM64 }

if (import.meta.main) {
  const targetName = /^--target=(.+)$/.exec(process.argv[2] ?? '')?.[1]
  if (process.argv.length > 3 || (process.argv[2] !== undefined && !targetName)) {
    console.error('usage: bun scripts/build.ts [--target=linux-arm64]')
    process.exit(2)
  }
  const target = targetName === undefined ? undefined : TARGETS[targetName]
  if (targetName !== undefined && !target) {
    console.error(`unknown target ${targetName} (known: ${Object.keys(TARGETS).join(', ')})`)
    process.exit(2)
  }
  await build(target)
}

/** Builds the binary for the host, or for `target`; exits the process with 1 on failure. */
async function build(target: NativeTarget | undefined): Promise<void> {
  const outfile = join(root, 'dist', target ? `pdfshare-${target.name}` : 'pdfshare')
  mkdirSync(join(root, 'dist'), { recursive: true })
  const started = performance.now()
  await buildViewer()
  const plugins: BunPlugin[] = []
  if (target) {
    const packages = await nativePackages(target)
    plugins.push(
      libsqlNativeAddon(packages.libsql),
      sharpNativeAddon({ platform: target.name, sharpDir: packages.sharp, libvipsDir: packages.libvips }),
    )
  } else {
    plugins.push(libsqlNativeAddon(), sharpNativeAddon())
  }
  // `assets` paths are relative to the working directory; the viewer module finds them at <import.meta.dir>/dist.
  process.chdir(root)
  const result = await Bun.build({
    entrypoints: [join(root, 'src', 'main.ts')],
    target: 'bun',
    format: 'esm', // required for bytecode with top-level await
    // Not the identifiers: with them renamed, the binary let query values past their schema's bounds (GET
    // /api/files?limit=0 answered 200 where the source answers 400; found when the suite ran on the binary).
    // Whitespace and syntax alone keep it right, at 2.6 MiB more (180 MiB).
    minify: { whitespace: true, syntax: true, identifiers: false },
    sourcemap: 'none',
    bytecode: true, // measured: roughly halves cold start
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins,
    compile: {
      outfile,
      ...(target ? { target: target.bun as Bun.Build.CompileTarget } : {}),
      assets: ['viewer/dist'],
      // A bunfig.toml in the directory the binary is started from could preload code into it; never read one.
      autoloadBunfig: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
    },
  })
  if (!result.success) {
    for (const log of result.logs) console.error(log)
    process.exit(1)
  }
  const size = statSync(outfile).size
  console.log(`built ${outfile} (${(size / 1024 / 1024).toFixed(1)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}
