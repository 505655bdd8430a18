-- Edited after drizzle-kit generated it: SQLite's ADD COLUMN keeps the reference's ON DELETE SET NULL (drizzle-kit left it out, and a room could not be deleted while a request named it).
ALTER TABLE `requests` ADD `room_id` text REFERENCES rooms(id) ON DELETE SET NULL;
