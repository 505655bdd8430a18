import { defineConfig } from 'drizzle-kit'

// The PostgreSQL side (issue 15): `bun run db:generate` writes its SQL migrations here from src/db/pg/schema.ts
// (the same tables of src/db/tables/, as PostgreSQL builds them), next to the SQLite ones of drizzle.config.ts,
// and embeds them (scripts/embed-migrations.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/pg/schema.ts',
  out: './src/db/pg/migrations',
})
