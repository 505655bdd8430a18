CREATE TABLE `requests` (
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
	`received` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `requests_id_unique` ON `requests` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `requests_slug_unique` ON `requests` (`slug`);--> statement-breakpoint
CREATE INDEX `requests_owner_seq_idx` ON `requests` (`owner_id`,`seq`);--> statement-breakpoint
CREATE TABLE `sender_codes` (
	`request_id` text NOT NULL,
	`email` text NOT NULL,
	`code_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`tries` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`request_id`, `email`),
	FOREIGN KEY (`request_id`) REFERENCES `requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `files` ADD `source_request_id` text;--> statement-breakpoint
ALTER TABLE `files` ADD `source_name` text;--> statement-breakpoint
ALTER TABLE `files` ADD `source_email` text;--> statement-breakpoint
ALTER TABLE `files` ADD `source_note` text;--> statement-breakpoint
CREATE INDEX `files_source_request_idx` ON `files` (`source_request_id`,`seq`);--> statement-breakpoint
ALTER TABLE `reader_events` ADD `request_id` text;