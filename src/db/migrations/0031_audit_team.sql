-- Edited after drizzle-kit generated it: the entries written before it name their team in their facts (actingTeam, else teamId), and get it in team_id.
ALTER TABLE `audit_events` ADD `team_id` text;--> statement-breakpoint
CREATE INDEX `audit_events_team_idx` ON `audit_events` (`team_id`,`seq`);--> statement-breakpoint
UPDATE `audit_events` SET `team_id` = coalesce(json_extract(`detail`, '$.actingTeam'), json_extract(`detail`, '$.teamId')) WHERE json_valid(`detail`) AND (json_type(`detail`, '$.actingTeam') = 'text' OR json_type(`detail`, '$.teamId') = 'text');
