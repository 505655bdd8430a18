-- Written by hand: the page-text index of core/search (docs/search.md). A tsvector column, its GIN index and the optional extensions (unaccent, pg_trgm) are outside what drizzle-kit models, so none of this is in the tables' definitions.
-- unaccent and pg_trgm are trusted extensions (PostgreSQL 13+): a database owner may create them. Where that is refused, search works without them (diacritics then count; CJK substrings are scanned).
DO $$ BEGIN
	CREATE EXTENSION IF NOT EXISTS unaccent;
EXCEPTION WHEN OTHERS THEN
	RAISE NOTICE 'pdfshare search: unaccent is not available (%); words with and without diacritics differ', SQLERRM;
END $$;
--> statement-breakpoint
DO $$ BEGIN
	CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
	RAISE NOTICE 'pdfshare search: pg_trgm is not available (%); CJK queries scan the pages', SQLERRM;
END $$;
--> statement-breakpoint
-- The folding of text and query alike: diacritics removed where unaccent is there (to_tsvector's 'simple' lowercases).
DO $$ BEGIN
	IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'unaccent') THEN
		CREATE FUNCTION search_fold(input text) RETURNS text LANGUAGE sql STABLE AS 'SELECT unaccent(input)';
	ELSE
		CREATE FUNCTION search_fold(input text) RETURNS text LANGUAGE sql IMMUTABLE AS 'SELECT input';
	END IF;
END $$;
--> statement-breakpoint
CREATE TABLE "search_files" (
	"file_id" text PRIMARY KEY NOT NULL REFERENCES "files"("id") ON DELETE CASCADE,
	"blob_key" text NOT NULL,
	"state" text NOT NULL,
	"error" text,
	"pages" integer,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_pages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"file_id" text NOT NULL REFERENCES "files"("id") ON DELETE CASCADE,
	"page" integer NOT NULL,
	"body" text NOT NULL,
	"words" tsvector NOT NULL,
	"cjk" boolean NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_pages_file_idx" ON "search_pages" ("file_id");
--> statement-breakpoint
CREATE INDEX "search_pages_words_idx" ON "search_pages" USING gin ("words");
--> statement-breakpoint
DO $$ BEGIN
	IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
		CREATE INDEX "search_pages_grams_idx" ON "search_pages" USING gin ("body" gin_trgm_ops) WHERE "cjk";
	END IF;
END $$;
