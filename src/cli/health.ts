import type { Config } from '../config'
import { allowOnly, type ParsedArgs } from './args'
import { CliFailure, type CliIo } from './io'

export const HEALTH_USAGE = `health                        ask the server on this machine's port for /api/health: exit 0 if it
                                answers ok within 5 s, else 1 (a container's HEALTHCHECK; no curl needed)`

const HEALTH_TIMEOUT_MS = 5000

/**
 * `pdfshare health`: the server's liveness from the machine it runs on, for a container's HEALTHCHECK (the image
 * has no curl) or a script. It asks the address the server listens on: loopback when it listens on all of them.
 */
export async function healthCommand(config: Config, args: ParsedArgs, io: CliIo): Promise<boolean> {
  allowOnly(args, 'health', ['port', 'host'])
  if (args.positionals.length > 1) throw new CliFailure(`unexpected argument ${JSON.stringify(args.positionals[1])}`, 2)
  const host =
    config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '[::1]' : config.host.includes(':') ? `[${config.host}]` : config.host
  const url = `http://${host}:${config.port}/api/health`
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS), redirect: 'manual' })
    const body = (await response.json().catch(() => undefined)) as { data?: { status?: string; version?: string } } | undefined
    if (response.status === 200 && body?.data?.status === 'ok') {
      io.out(`ok (pdfshare ${body.data.version ?? '?'} at ${url})`)
      return true
    }
    io.err(`pdfshare: ${url} answered ${response.status}`)
  } catch (error) {
    io.err(`pdfshare: no answer from ${url}: ${error instanceof Error ? error.message : String(error)}`)
  }
  return false
}
