-- Edited after drizzle-kit generated it: invitations.team_id gets its ON DELETE cascade (drizzle-kit left it out of the ADD COLUMN); the audit entries written before it get the team their facts name (actingTeam, else teamId) in team_id.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_idempotency_keys` (
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`request` text NOT NULL,
	`lease` text NOT NULL,
	`lease_until` integer NOT NULL,
	`done` integer NOT NULL,
	`digest` text,
	`status` integer,
	`body` text,
	`headers` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `key`),
	FOREIGN KEY (`user_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_idempotency_keys`("user_id", "key", "request", "lease", "lease_until", "done", "digest", "status", "body", "headers", "created_at", "expires_at") SELECT "user_id", "key", "request", "lease", "lease_until", "done", "digest", "status", "body", "headers", "created_at", "expires_at" FROM `idempotency_keys`;--> statement-breakpoint
DROP TABLE `idempotency_keys`;--> statement-breakpoint
ALTER TABLE `__new_idempotency_keys` RENAME TO `idempotency_keys`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
ALTER TABLE `audit_events` ADD `team_id` text;--> statement-breakpoint
CREATE INDEX `audit_events_team_idx` ON `audit_events` (`team_id`,`seq`);--> statement-breakpoint
ALTER TABLE `invitations` ADD `team_id` text REFERENCES teams(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `invitations` ADD `team_role` text;--> statement-breakpoint
ALTER TABLE `team_members` ADD `sso_group` text;--> statement-breakpoint
UPDATE `audit_events` SET `team_id` = coalesce(json_extract(`detail`, '$.actingTeam'), json_extract(`detail`, '$.teamId')) WHERE json_valid(`detail`) AND (json_type(`detail`, '$.actingTeam') = 'text' OR json_type(`detail`, '$.teamId') = 'text');
