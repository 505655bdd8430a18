-- Edited after drizzle-kit generated it: the copy into the rebuilt links table selects NULL for the new room_id (drizzle-kit selected the column the old table lacks).
CREATE TABLE `room_items` (
	`room_id` text NOT NULL,
	`file_id` text NOT NULL,
	`folder` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`room_id`, `file_id`),
	FOREIGN KEY (`room_id`) REFERENCES `rooms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `room_items_file_idx` ON `room_items` (`file_id`);--> statement-breakpoint
CREATE TABLE `rooms` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rooms_id_unique` ON `rooms` (`id`);--> statement-breakpoint
CREATE INDEX `rooms_owner_seq_idx` ON `rooms` (`owner_id`,`seq`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_links` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`file_id` text,
	`room_id` text,
	`slug` text NOT NULL,
	`is_default` integer NOT NULL,
	`label` text NOT NULL,
	`allow_download` integer NOT NULL,
	`search_engine_visible` integer NOT NULL,
	`expires_at` integer,
	`max_views` integer,
	`password_hash` text,
	`disabled` integer NOT NULL,
	`access` text DEFAULT 'open' NOT NULL,
	`allow_readers` text DEFAULT '' NOT NULL,
	`deny_readers` text DEFAULT '' NOT NULL,
	`agreement` text,
	`agreement_version` integer DEFAULT 0 NOT NULL,
	`notify` text DEFAULT 'on' NOT NULL,
	`embed_origins` text DEFAULT '' NOT NULL,
	`watermark` text,
	`views` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`room_id`) REFERENCES `rooms`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "links_file_or_room" CHECK(("file_id" IS NULL) <> ("room_id" IS NULL))
);
--> statement-breakpoint
INSERT INTO `__new_links`("seq", "id", "file_id", "room_id", "slug", "is_default", "label", "allow_download", "search_engine_visible", "expires_at", "max_views", "password_hash", "disabled", "access", "allow_readers", "deny_readers", "agreement", "agreement_version", "notify", "embed_origins", "watermark", "views", "created_at", "updated_at") SELECT "seq", "id", "file_id", NULL, "slug", "is_default", "label", "allow_download", "search_engine_visible", "expires_at", "max_views", "password_hash", "disabled", "access", "allow_readers", "deny_readers", "agreement", "agreement_version", "notify", "embed_origins", "watermark", "views", "created_at", "updated_at" FROM `links`;--> statement-breakpoint
DROP TABLE `links`;--> statement-breakpoint
ALTER TABLE `__new_links` RENAME TO `links`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `links_id_unique` ON `links` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `links_slug_unique` ON `links` (`slug`);--> statement-breakpoint
CREATE INDEX `links_file_seq_idx` ON `links` (`file_id`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `links_one_default_idx` ON `links` (`file_id`) WHERE "links"."is_default" = 1;--> statement-breakpoint
CREATE INDEX `links_room_seq_idx` ON `links` (`room_id`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `links_one_room_default_idx` ON `links` (`room_id`) WHERE "links"."is_default" = 1;