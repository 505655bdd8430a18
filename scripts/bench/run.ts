/**
 * `bun run bench`: the numbers the project tracks, measured against the compiled binary.
 * Targets (checked here, not in timed tests): a 100 MiB upload adds at most ~32 MiB to the server's peak RSS.
 */
import { statSync } from 'node:fs'
import { coldStart } from './cold-start'
import { ensureBinary, mib } from './support'
import { uploadOf100MiB } from './upload'

const binary = ensureBinary()
const results: Record<string, string> = {}
results['binary size'] = mib(statSync(binary).size)

const cold = await coldStart(binary)
results['cold start → first 200, new data dir (median of 7)'] = `${cold.firstStartMs.toFixed(0)} ms`
results['cold start → first 200, existing data dir (median of 7)'] = `${cold.warmDataMs.toFixed(0)} ms`

const upload = await uploadOf100MiB(binary)
results['100 MiB upload: extra peak RSS'] = mib(upload.extraPeakBytes)
results['100 MiB upload: server RSS before'] = mib(upload.baselineRss)
results['100 MiB upload: wall time (curl, durable)'] = `${upload.seconds.toFixed(2)} s`

const width = Math.max(...Object.keys(results).map((k) => k.length))
for (const [name, value] of Object.entries(results)) console.log(`${name.padEnd(width)}  ${value}`)

const budget = 32 * 1024 * 1024
if (upload.extraPeakBytes > budget) {
  console.error(`FAIL: upload raised peak RSS by ${mib(upload.extraPeakBytes)} (budget ${mib(budget)})`)
  process.exit(1)
}
