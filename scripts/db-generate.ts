/**
 * `bun run db:generate [--name what_changed]`: drizzle-kit writes the SQL migration for the changes in
 * src/db/schema.ts, then the migration index is re-embedded so the binary carries it.
 */
const generate = Bun.spawnSync(['bunx', 'drizzle-kit', 'generate', ...process.argv.slice(2)], { stdout: 'inherit', stderr: 'inherit' })
if (generate.exitCode !== 0) process.exit(generate.exitCode ?? 1)
const embed = Bun.spawnSync(['bun', `${import.meta.dir}/embed-migrations.ts`], { stdout: 'inherit', stderr: 'inherit' })
process.exit(embed.exitCode ?? 1)
