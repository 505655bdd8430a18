CREATE TABLE `view_marks` (
	`file_id` text NOT NULL,
	`visitor` text NOT NULL,
	`seen_at` integer NOT NULL,
	PRIMARY KEY(`file_id`, `visitor`),
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `view_marks_seen_idx` ON `view_marks` (`seen_at`);