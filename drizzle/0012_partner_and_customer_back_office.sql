ALTER TABLE "users" ADD COLUMN "blocked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "blocked_reason" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "previous_secret_hash" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;--> statement-breakpoint
-- Partner names become unique (case-insensitive): older duplicates keep their name with their id appended.
UPDATE "partners" p SET "name" = p."name" || ' (' || p."id" || ')' WHERE EXISTS (SELECT 1 FROM "partners" q WHERE lower(q."name") = lower(p."name") AND q."id" < p."id");--> statement-breakpoint
CREATE UNIQUE INDEX "partners_name_uq" ON "partners" USING btree (lower("name"));