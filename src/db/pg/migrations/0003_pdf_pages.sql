CREATE TABLE "pdf_pages" (
	"blob_key" text PRIMARY KEY NOT NULL,
	"pages" integer NOT NULL
);
