CREATE TABLE `email_changes` (
	`secret_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_changes_user_idx` ON `email_changes` (`user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `sso_link_allowed` integer DEFAULT false NOT NULL;