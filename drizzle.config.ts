import { defineConfig } from 'drizzle-kit'

// `bun run db:generate` writes SQL migrations here from src/db/schema.ts (the tables of src/db/tables/ as SQLite
// builds them), then embeds them (scripts/embed-migrations.ts) so the single binary carries them.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './src/db/migrations',
})
