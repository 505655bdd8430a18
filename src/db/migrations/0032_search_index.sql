-- Written by hand: the page-text index of core/search (docs/search.md). FTS5's virtual tables and the trigger that empties them are outside what drizzle-kit models, so none of this is in the tables' definitions.
-- One row per file whose current PDF was read: its state (pending until read, indexed, failed with why) for the blob it was read from.
CREATE TABLE `search_files` (
	`file_id` text PRIMARY KEY NOT NULL REFERENCES `files`(`id`) ON DELETE CASCADE,
	`blob_key` text NOT NULL,
	`state` text NOT NULL,
	`error` text,
	`pages` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
-- One row per page with text; its id is the rowid of its text in search_words (and search_grams for CJK pages).
CREATE TABLE `search_pages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`file_id` text NOT NULL REFERENCES `files`(`id`) ON DELETE CASCADE,
	`page` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `search_pages_file_idx` ON `search_pages` (`file_id`);
--> statement-breakpoint
CREATE VIRTUAL TABLE `search_words` USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE `search_grams` USING fts5(body, tokenize = 'trigram');
--> statement-breakpoint
-- A page's row goes (its file deleted, through the cascade; or read anew): its text goes with it, in the same statement.
CREATE TRIGGER `search_pages_gone` AFTER DELETE ON `search_pages` BEGIN
	DELETE FROM `search_words` WHERE rowid = old.id;
	DELETE FROM `search_grams` WHERE rowid = old.id;
END;
