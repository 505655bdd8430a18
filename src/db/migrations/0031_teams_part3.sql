-- Edited after drizzle-kit generated it: invitations.team_id gets its ON DELETE cascade (drizzle-kit left it out of the ADD COLUMN); the audit entries written before it get the team their facts name (actingTeam, else teamId) in team_id.
ALTER TABLE `audit_events` ADD `team_id` text;--> statement-breakpoint
CREATE INDEX `audit_events_team_idx` ON `audit_events` (`team_id`,`seq`);--> statement-breakpoint
ALTER TABLE `invitations` ADD `team_id` text REFERENCES teams(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `invitations` ADD `team_role` text;--> statement-breakpoint
ALTER TABLE `team_members` ADD `sso_group` text;--> statement-breakpoint
UPDATE `audit_events` SET `team_id` = coalesce(json_extract(`detail`, '$.actingTeam'), json_extract(`detail`, '$.teamId')) WHERE json_valid(`detail`) AND (json_type(`detail`, '$.actingTeam') = 'text' OR json_type(`detail`, '$.teamId') = 'text');
