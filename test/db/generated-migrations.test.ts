/**
 * Every migration of both dialects is the one drizzle-kit generated, or says in its first line that it was edited
 * (a migration that moves data, or does what drizzle-kit does not model), or is one of the four written before
 * that rule; drizzle-kit's snapshots follow each other; and neither schema has a change its migrations lack.
 * scripts/check-migrations.ts does the comparing, in a process of its own (see there).
 */
import { expect, test } from 'bun:test'
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MIGRATIONS_DIR, PG_MIGRATIONS_DIR, readJournal } from '../../scripts/embed-migrations'

type Checked = {
  migrations: { tag: string; state: 'generated' | 'edited' | 'asks'; firstLine: string; onlyInFile: string[] }[]
  brokenChain: string[]
  pending: string[]
}

/** The migrations edited before the header rule, and why: their text stays as installed databases ran it. */
const EDITED_BEFORE_THE_RULE = {
  sqlite: {
    '0004_links_and_versions': "moves each file's slug and switches into its default link, and view marks onto links",
    '0008_token_scopes_and_admins': 'makes the first user of an install its admin',
  },
  postgresql: {
    '0002_view_marks_visitor_bytes': 'the "C" collation of view_marks.visitor, which drizzle-kit does not model',
    '0004_token_scopes_and_admins': 'makes the first user of an install its admin',
  },
}

/** The first line of a migration edited after drizzle-kit generated it, or written whole by hand. */
const EDITED_HEADER = /^-- (Edited after drizzle-kit generated it|Written by hand)\b/

async function check(sqliteDir = MIGRATIONS_DIR, pgDir = PG_MIGRATIONS_DIR): Promise<Record<'sqlite' | 'postgresql', Checked>> {
  const run = Bun.spawn(['bun', join(import.meta.dir, '../../scripts/check-migrations.ts'), sqliteDir, pgDir], {
    stdin: 'ignore',
    stderr: 'inherit',
  })
  const output = await new Response(run.stdout).text()
  expect(await run.exited).toBe(0)
  return JSON.parse(output)
}

/** The migrations that differ from drizzle-kit's output without saying so. */
const unexplained = (checked: Checked, before: Record<string, string>) =>
  checked.migrations.filter((m) => m.state !== 'generated' && !EDITED_HEADER.test(m.firstLine) && !(m.tag in before)).map((m) => m.tag)

test("every migration is drizzle-kit's, or says it was edited; the snapshots chain; no schema change lacks its migration", async () => {
  const checked = await check()
  for (const dialect of ['sqlite', 'postgresql'] as const) {
    const { migrations, brokenChain, pending } = checked[dialect]
    expect(migrations.length).toBe(readJournal(dialect === 'sqlite' ? MIGRATIONS_DIR : PG_MIGRATIONS_DIR).entries.length)
    expect({ dialect, unexplained: unexplained(checked[dialect], EDITED_BEFORE_THE_RULE[dialect]), brokenChain, pending }).toEqual({
      dialect,
      unexplained: [],
      brokenChain: [],
      pending: [],
    })
    // The list of older edits holds only migrations that are edited indeed.
    const edited = migrations.filter((m) => m.state !== 'generated').map((m) => m.tag)
    expect(edited).toEqual(expect.arrayContaining(Object.keys(EDITED_BEFORE_THE_RULE[dialect])))
  }
})

test('a statement added to a generated migration is seen, and passes once its first line says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfshare-migrations-'))
  try {
    cpSync(MIGRATIONS_DIR, dir, { recursive: true })
    // The newest migration drizzle-kit wrote as it is (the newest of all may be an edited one, such as 0027_request_rooms).
    const last = (await check(dir)).sqlite.migrations.filter((m) => m.state === 'generated').at(-1)!.tag
    const file = join(dir, `${last}.sql`)
    appendFileSync(file, '--> statement-breakpoint\nUPDATE `users` SET `name` = lower(`name`);')
    const planted = (await check(dir)).sqlite
    expect(planted.migrations.find((m) => m.tag === last)).toMatchObject({
      state: 'edited',
      onlyInFile: ['UPDATE `users` SET `name` = lower(`name`);'],
    })
    expect(unexplained(planted, EDITED_BEFORE_THE_RULE.sqlite)).toEqual([last])
    writeFileSync(file, `-- Edited after drizzle-kit generated it: names lower-case.\n${readFileSync(file, 'utf8')}`)
    expect(unexplained((await check(dir)).sqlite, EDITED_BEFORE_THE_RULE.sqlite)).toEqual([])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
