CREATE TABLE `file_versions` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`file_id` text NOT NULL,
	`blob_key` text NOT NULL,
	`filename` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`uploaded_at` integer NOT NULL,
	`replaced_at` integer NOT NULL,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `file_versions_id_unique` ON `file_versions` (`id`);--> statement-breakpoint
CREATE INDEX `file_versions_file_seq_idx` ON `file_versions` (`file_id`,`seq`);--> statement-breakpoint
CREATE TABLE `links` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`file_id` text NOT NULL,
	`slug` text NOT NULL,
	`is_default` integer NOT NULL,
	`label` text NOT NULL,
	`allow_download` integer NOT NULL,
	`search_engine_visible` integer NOT NULL,
	`expires_at` integer,
	`max_views` integer,
	`password_hash` text,
	`disabled` integer NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `links_id_unique` ON `links` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `links_slug_unique` ON `links` (`slug`);--> statement-breakpoint
CREATE INDEX `links_file_seq_idx` ON `links` (`file_id`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `links_one_default_idx` ON `links` (`file_id`) WHERE "links"."is_default" = 1;--> statement-breakpoint
-- Every existing file gets its default link from its own columns: the same slug (every share URL keeps
-- working), the same switches and views. A link id is 32 lowercase hex characters here, a well-formed id.
INSERT INTO `links` (`id`, `file_id`, `slug`, `is_default`, `label`, `allow_download`, `search_engine_visible`, `expires_at`,
  `max_views`, `password_hash`, `disabled`, `views`, `created_at`, `updated_at`)
  SELECT lower(hex(randomblob(16))), `id`, `slug`, 1, '', `allow_download`, `search_engine_visible`, NULL, NULL, NULL, 0, `views`,
    `created_at`, `updated_at` FROM `files` ORDER BY `seq`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_view_marks` (
	`link_id` text NOT NULL,
	`visitor` text NOT NULL,
	`seen_at` integer NOT NULL,
	PRIMARY KEY(`link_id`, `visitor`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_view_marks`("link_id", "visitor", "seen_at")
  SELECT `links`.`id`, `view_marks`.`visitor`, `view_marks`.`seen_at` FROM `view_marks`
  JOIN `links` ON `links`.`file_id` = `view_marks`.`file_id` AND `links`.`is_default` = 1;--> statement-breakpoint
DROP TABLE `view_marks`;--> statement-breakpoint
ALTER TABLE `__new_view_marks` RENAME TO `view_marks`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `view_marks_seen_idx` ON `view_marks` (`seen_at`);--> statement-breakpoint
DROP INDEX `files_slug_unique`;--> statement-breakpoint
-- SQLite adds a NOT NULL column only with a default; every row gets its real value at once.
ALTER TABLE `files` ADD `uploaded_at` integer NOT NULL DEFAULT 0;--> statement-breakpoint
ALTER TABLE `files` ADD `version_id` text NOT NULL DEFAULT '';--> statement-breakpoint
UPDATE `files` SET `uploaded_at` = `created_at`, `version_id` = lower(hex(randomblob(16)));--> statement-breakpoint
ALTER TABLE `files` DROP COLUMN `slug`;--> statement-breakpoint
ALTER TABLE `files` DROP COLUMN `allow_download`;--> statement-breakpoint
ALTER TABLE `files` DROP COLUMN `search_engine_visible`;