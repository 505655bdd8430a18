ALTER TABLE `tokens` ADD `scopes` text;--> statement-breakpoint
ALTER TABLE `users` ADD `is_admin` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- The first user of an install is its admin (docs/api.md, Admins).
UPDATE `users` SET `is_admin` = true WHERE `id` = (SELECT `id` FROM `users` ORDER BY `created_at`, `id` LIMIT 1);
