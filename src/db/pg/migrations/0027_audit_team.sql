-- Edited after drizzle-kit generated it: the entries written before it name their team in their facts (actingTeam, else teamId), and get it in team_id.
ALTER TABLE "audit_events" ADD COLUMN "team_id" text;--> statement-breakpoint
CREATE INDEX "audit_events_team_idx" ON "audit_events" USING btree ("team_id","seq");--> statement-breakpoint
UPDATE "audit_events" SET "team_id" = coalesce("detail"::jsonb ->> 'actingTeam', "detail"::jsonb ->> 'teamId') WHERE jsonb_typeof("detail"::jsonb -> 'actingTeam') = 'string' OR jsonb_typeof("detail"::jsonb -> 'teamId') = 'string';
