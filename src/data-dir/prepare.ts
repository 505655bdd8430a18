import { chmod, mkdir, stat } from 'node:fs/promises'
import type { DataDirLayout } from './layout'

/**
 * Creates the data dir and its folders (owner-only, since they hold everyone's PDFs and the password hashes).
 * A data dir that already exists open to other users (`mkdir -p` under umask 022, a Docker volume, systemd's
 * StateDirectory default 0755) is tightened to 0700: nothing in it is meant for anyone else. Returns the
 * lines to tell the operator.
 */
export async function prepareDataDir(layout: DataDirLayout): Promise<string[]> {
  for (const dir of [layout.root, layout.blobs, layout.tmp, layout.previews]) {
    await mkdir(dir, { recursive: true, mode: 0o700 })
  }
  const mode = (await stat(layout.root)).mode & 0o777
  if ((mode & 0o077) === 0) return []
  const was = `mode 0${mode.toString(8)}`
  try {
    await chmod(layout.root, 0o700)
    return [`the data dir ${layout.root} was open to other users (${was}); changed it to 0700`]
  } catch (error) {
    // Not ours to change (e.g. owned by root): the files inside are still created 0600.
    return [
      `warning: the data dir ${layout.root} is open to other users (${was}) and could not be changed to 0700 (${(error as NodeJS.ErrnoException).code}); files in it are created 0600`,
    ]
  }
}
