CREATE TABLE `visit_pages` (
	`visit_id` text NOT NULL,
	`page` integer NOT NULL,
	`ms` integer NOT NULL,
	PRIMARY KEY(`visit_id`, `page`),
	FOREIGN KEY (`visit_id`) REFERENCES `visits`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `visits` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`link_id` text NOT NULL,
	`file_id` text NOT NULL,
	`at` integer NOT NULL,
	`visitor` text NOT NULL,
	`referrer_host` text,
	`device` text NOT NULL,
	`tracked` integer NOT NULL,
	`viewed` integer NOT NULL,
	`downloaded` integer NOT NULL,
	`reading_ms` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `visits_id_unique` ON `visits` (`id`);--> statement-breakpoint
CREATE INDEX `visits_file_at_idx` ON `visits` (`file_id`,`at`);--> statement-breakpoint
CREATE INDEX `visits_link_at_idx` ON `visits` (`link_id`,`at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`event` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` integer NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_status` integer,
	`last_error` text,
	`delivered_at` integer,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_id_unique` ON `webhook_deliveries` (`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`seq`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`owner_id` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhooks_id_unique` ON `webhooks` (`id`);--> statement-breakpoint
CREATE INDEX `webhooks_owner_idx` ON `webhooks` (`owner_id`,`seq`);