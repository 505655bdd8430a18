CREATE TABLE "branding" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text,
	"accent" text,
	"hide_pdfshare" boolean,
	"logo" "bytea",
	"logo_hash" text,
	"logo_width" integer,
	"logo_height" integer,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "embed_origins" text DEFAULT '' NOT NULL;