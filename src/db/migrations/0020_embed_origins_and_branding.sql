CREATE TABLE `branding` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text,
	`accent` text,
	`hide_pdfshare` integer,
	`logo` blob,
	`logo_hash` text,
	`logo_width` integer,
	`logo_height` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `links` ADD `embed_origins` text DEFAULT '' NOT NULL;