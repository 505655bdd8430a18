-- Edited after drizzle-kit generated it: every user gets its owners row before owner_id references owners; tokens.team_id gets its ON DELETE cascade (drizzle-kit left it out of the ADD COLUMN).
CREATE TABLE `owners` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `owners` (`id`, `kind`) SELECT `id`, 'user' FROM `users`;--> statement-breakpoint
CREATE TABLE `team_members` (
	`team_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `user_id`),
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `team_members_user_idx` ON `team_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `teams` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`max_bytes` integer,
	`max_files` integer,
	FOREIGN KEY (`id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_files` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`owner_id` text NOT NULL,
	`blob_key` text NOT NULL,
	`filename` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`uploaded_at` integer NOT NULL,
	`version_id` text NOT NULL,
	`source_request_id` text,
	`source_name` text,
	`source_email` text,
	`source_note` text,
	FOREIGN KEY (`owner_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_files`("seq", "id", "owner_id", "blob_key", "filename", "title", "description", "size", "sha256", "views", "created_at", "updated_at", "uploaded_at", "version_id", "source_request_id", "source_name", "source_email", "source_note") SELECT "seq", "id", "owner_id", "blob_key", "filename", "title", "description", "size", "sha256", "views", "created_at", "updated_at", "uploaded_at", "version_id", "source_request_id", "source_name", "source_email", "source_note" FROM `files`;--> statement-breakpoint
DROP TABLE `files`;--> statement-breakpoint
ALTER TABLE `__new_files` RENAME TO `files`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `files_id_unique` ON `files` (`id`);--> statement-breakpoint
CREATE INDEX `files_owner_seq_idx` ON `files` (`owner_id`,`seq`);--> statement-breakpoint
CREATE INDEX `files_source_request_idx` ON `files` (`source_request_id`,`seq`);--> statement-breakpoint
CREATE TABLE `__new_notification_channels` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`owner_id` text NOT NULL,
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_notification_channels`("seq", "id", "owner_id", "kind", "target", "created_at") SELECT "seq", "id", "owner_id", "kind", "target", "created_at" FROM `notification_channels`;--> statement-breakpoint
DROP TABLE `notification_channels`;--> statement-breakpoint
ALTER TABLE `__new_notification_channels` RENAME TO `notification_channels`;--> statement-breakpoint
CREATE UNIQUE INDEX `notification_channels_id_unique` ON `notification_channels` (`id`);--> statement-breakpoint
CREATE INDEX `notification_channels_owner_idx` ON `notification_channels` (`owner_id`,`seq`);--> statement-breakpoint
CREATE TABLE `__new_notification_deliveries` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`owner_id` text NOT NULL,
	`channel_id` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`url` text NOT NULL,
	`created_at` integer NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_status` integer,
	`last_error` text,
	`delivered_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`channel_id`) REFERENCES `notification_channels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_notification_deliveries`("seq", "id", "owner_id", "channel_id", "title", "body", "url", "created_at", "status", "attempts", "next_attempt_at", "last_status", "last_error", "delivered_at") SELECT "seq", "id", "owner_id", "channel_id", "title", "body", "url", "created_at", "status", "attempts", "next_attempt_at", "last_status", "last_error", "delivered_at" FROM `notification_deliveries`;--> statement-breakpoint
DROP TABLE `notification_deliveries`;--> statement-breakpoint
ALTER TABLE `__new_notification_deliveries` RENAME TO `notification_deliveries`;--> statement-breakpoint
CREATE UNIQUE INDEX `notification_deliveries_id_unique` ON `notification_deliveries` (`id`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_due_idx` ON `notification_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_owner_idx` ON `notification_deliveries` (`owner_id`,`seq`);--> statement-breakpoint
CREATE TABLE `__new_reader_events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`owner_id` text NOT NULL,
	`link_id` text NOT NULL,
	`kind` text NOT NULL,
	`reader` text,
	`request_id` text,
	`at` integer NOT NULL,
	`state` text NOT NULL,
	`routed_by` text,
	FOREIGN KEY (`owner_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_reader_events`("seq", "id", "owner_id", "link_id", "kind", "reader", "request_id", "at", "state", "routed_by") SELECT "seq", "id", "owner_id", "link_id", "kind", "reader", "request_id", "at", "state", "routed_by" FROM `reader_events`;--> statement-breakpoint
DROP TABLE `reader_events`;--> statement-breakpoint
ALTER TABLE `__new_reader_events` RENAME TO `reader_events`;--> statement-breakpoint
CREATE UNIQUE INDEX `reader_events_id_unique` ON `reader_events` (`id`);--> statement-breakpoint
CREATE INDEX `reader_events_state_idx` ON `reader_events` (`state`,`at`);--> statement-breakpoint
CREATE INDEX `reader_events_link_idx` ON `reader_events` (`link_id`,`state`,`at`);--> statement-breakpoint
CREATE TABLE `__new_requests` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`owner_id` text NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`owner_name` text,
	`max_files` integer NOT NULL,
	`max_file_size` integer NOT NULL,
	`expires_at` integer,
	`password_hash` text,
	`access` text DEFAULT 'open' NOT NULL,
	`allow_senders` text DEFAULT '' NOT NULL,
	`deny_senders` text DEFAULT '' NOT NULL,
	`disabled` integer NOT NULL,
	`notify` text DEFAULT 'on' NOT NULL,
	`room_id` text,
	`received` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`room_id`) REFERENCES `rooms`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_requests`("seq", "id", "owner_id", "slug", "title", "message", "owner_name", "max_files", "max_file_size", "expires_at", "password_hash", "access", "allow_senders", "deny_senders", "disabled", "notify", "room_id", "received", "created_at", "updated_at") SELECT "seq", "id", "owner_id", "slug", "title", "message", "owner_name", "max_files", "max_file_size", "expires_at", "password_hash", "access", "allow_senders", "deny_senders", "disabled", "notify", "room_id", "received", "created_at", "updated_at" FROM `requests`;--> statement-breakpoint
DROP TABLE `requests`;--> statement-breakpoint
ALTER TABLE `__new_requests` RENAME TO `requests`;--> statement-breakpoint
CREATE UNIQUE INDEX `requests_id_unique` ON `requests` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `requests_slug_unique` ON `requests` (`slug`);--> statement-breakpoint
CREATE INDEX `requests_owner_seq_idx` ON `requests` (`owner_id`,`seq`);--> statement-breakpoint
CREATE TABLE `__new_rooms` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_rooms`("seq", "id", "owner_id", "name", "description", "created_at", "updated_at") SELECT "seq", "id", "owner_id", "name", "description", "created_at", "updated_at" FROM `rooms`;--> statement-breakpoint
DROP TABLE `rooms`;--> statement-breakpoint
ALTER TABLE `__new_rooms` RENAME TO `rooms`;--> statement-breakpoint
CREATE UNIQUE INDEX `rooms_id_unique` ON `rooms` (`id`);--> statement-breakpoint
CREATE INDEX `rooms_owner_seq_idx` ON `rooms` (`owner_id`,`seq`);--> statement-breakpoint
CREATE TABLE `__new_webhooks` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`owner_id` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_webhooks`("seq", "id", "owner_id", "url", "events", "secret", "created_at") SELECT "seq", "id", "owner_id", "url", "events", "secret", "created_at" FROM `webhooks`;--> statement-breakpoint
DROP TABLE `webhooks`;--> statement-breakpoint
ALTER TABLE `__new_webhooks` RENAME TO `webhooks`;--> statement-breakpoint
CREATE UNIQUE INDEX `webhooks_id_unique` ON `webhooks` (`id`);--> statement-breakpoint
CREATE INDEX `webhooks_owner_idx` ON `webhooks` (`owner_id`,`seq`);--> statement-breakpoint
ALTER TABLE `tokens` ADD `team_id` text REFERENCES teams(id) ON DELETE cascade;