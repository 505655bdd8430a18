CREATE TABLE `acceptances` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`link_id` text NOT NULL,
	`file_id` text NOT NULL,
	`version` integer NOT NULL,
	`reader` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `acceptances_id_unique` ON `acceptances` (`id`);--> statement-breakpoint
CREATE INDEX `acceptances_link_seq_idx` ON `acceptances` (`link_id`,`seq`);--> statement-breakpoint
CREATE INDEX `acceptances_file_seq_idx` ON `acceptances` (`file_id`,`seq`);--> statement-breakpoint
CREATE TABLE `agreement_texts` (
	`link_id` text NOT NULL,
	`version` integer NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`link_id`, `version`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `reader_codes` (
	`link_id` text NOT NULL,
	`email` text NOT NULL,
	`code_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`tries` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `email`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `links` ADD `access` text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE `links` ADD `allow_readers` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `links` ADD `deny_readers` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `links` ADD `agreement` text;--> statement-breakpoint
ALTER TABLE `links` ADD `agreement_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `visits` ADD `reader` text;