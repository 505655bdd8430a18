-- Edited after drizzle-kit generated it: the audit entries written before it get the team their facts name (actingTeam, else teamId) in team_id.
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "team_id" text;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "team_id" text;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "team_role" text;--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "sso_group" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_owners_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_team_idx" ON "audit_events" USING btree ("team_id","seq");--> statement-breakpoint
UPDATE "audit_events" SET "team_id" = coalesce("detail"::jsonb ->> 'actingTeam', "detail"::jsonb ->> 'teamId') WHERE jsonb_typeof("detail"::jsonb -> 'actingTeam') = 'string' OR jsonb_typeof("detail"::jsonb -> 'teamId') = 'string';
