CREATE TABLE `notification_channels` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`owner_id` text NOT NULL,
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_channels_id_unique` ON `notification_channels` (`id`);--> statement-breakpoint
CREATE INDEX `notification_channels_owner_idx` ON `notification_channels` (`owner_id`,`seq`);--> statement-breakpoint
CREATE TABLE `notification_deliveries` (
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
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`channel_id`) REFERENCES `notification_channels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_deliveries_id_unique` ON `notification_deliveries` (`id`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_due_idx` ON `notification_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `notification_deliveries_owner_idx` ON `notification_deliveries` (`owner_id`,`seq`);--> statement-breakpoint
CREATE TABLE `reader_events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`owner_id` text NOT NULL,
	`link_id` text NOT NULL,
	`kind` text NOT NULL,
	`reader` text,
	`at` integer NOT NULL,
	`state` text NOT NULL,
	`routed_by` text,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reader_events_id_unique` ON `reader_events` (`id`);--> statement-breakpoint
CREATE INDEX `reader_events_state_idx` ON `reader_events` (`state`,`at`);--> statement-breakpoint
CREATE INDEX `reader_events_link_idx` ON `reader_events` (`link_id`,`state`,`at`);--> statement-breakpoint
ALTER TABLE `links` ADD `notify` text DEFAULT 'on' NOT NULL;