/**
 * What makes the processes of one test run findable, so that none outlives it. The test command
 * (scripts/test.ts) sets TEST_RUN_ID in its environment; every process the run starts inherits it (the
 * helpers that give a process an environment of its own pass it on: process.ts), also its grandchildren that
 * were left to init. Its name is not one of pdfshare's PDFSHARE_ settings, which a renderer process is not given.
 *
 * Two sweeps use it: after each test file (test/support/preload.ts) the processes that file started under its
 * test process are stopped, and at the end of the run scripts/test.ts fails when any process of the run is left.
 */
import { readdirSync, readFileSync } from 'node:fs'

export const TEST_RUN = 'TEST_RUN_ID'

/** The run's marker, for an environment built from nothing (empty outside a run of the test command). */
export function testRunEnv(): Record<string, string> {
  const id = process.env[TEST_RUN]
  return id ? { [TEST_RUN]: id } : {}
}

export type ProcessInfo = { pid: number; ppid: number; command: string }

/** A live process (not a zombie), or undefined once it is gone. */
function infoOf(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After the command name, which is in parentheses and may contain spaces: the state, then the parent's pid.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (state === 'Z' || state === 'X') return undefined
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
    return { pid, ppid: Number(ppid), command: command || stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) }
  } catch {
    return undefined
  }
}

const pids = () =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)

/** Every live process whose environment carries this run's marker, but this one. */
export function processesOfRun(id: string): ProcessInfo[] {
  const marker = `${TEST_RUN}=${id}`
  const found: ProcessInfo[] = []
  for (const pid of pids()) {
    if (pid === process.pid) continue
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker)) continue
    } catch {
      continue // gone, or not ours to read
    }
    const info = infoOf(pid)
    if (info) found.push(info)
  }
  return found
}

/** The live descendants of process `root` (children first), read from /proc. */
export function descendantsOf(root: number): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>()
  for (const pid of pids()) {
    const info = infoOf(pid)
    if (info) children.set(info.ppid, [...(children.get(info.ppid) ?? []), info])
  }
  const found: ProcessInfo[] = []
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child)
      visit(child.pid)
    }
  }
  visit(root)
  return found
}

/** SIGKILL to each (a process already gone is no error). */
export function killAll(processes: ProcessInfo[]): void {
  for (const { pid } of processes) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
}

export const describeProcess = ({ pid, ppid, command }: ProcessInfo) => `pid ${pid} (parent ${ppid}): ${command.slice(0, 200)}`
