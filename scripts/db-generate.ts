/**
 * `bun run db:generate [--name what_changed]`: drizzle-kit writes the SQL migrations for a change of the tables'
 * definitions (src/db/tables/), once for each dialect, from the tables built for it: src/db/schema.ts (SQLite,
 * drizzle.config.ts) and src/db/pg/schema.ts (PostgreSQL, drizzle.pg.config.ts), each under the same name; then
 * the migration indexes are re-embedded so the binary carries them. Nothing changed: nothing is written.
 */
for (const config of ['drizzle.config.ts', 'drizzle.pg.config.ts']) {
  const generate = Bun.spawnSync(['bunx', 'drizzle-kit', 'generate', '--config', config, ...process.argv.slice(2)], {
    stdout: 'inherit',
    stderr: 'inherit',
  })
  if (generate.exitCode !== 0) process.exit(generate.exitCode ?? 1)
}
const embed = Bun.spawnSync(['bun', `${import.meta.dir}/embed-migrations.ts`], { stdout: 'inherit', stderr: 'inherit' })
process.exit(embed.exitCode ?? 1)
