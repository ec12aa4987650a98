ALTER TABLE "users" ADD COLUMN "blocked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "blocked_reason" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "previous_secret_hash" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "previous_webhook_secret_encrypted" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "previous_webhook_secret_expires_at" timestamp with time zone;--> statement-breakpoint
-- Partner names become unique (case-insensitive): older duplicates keep their name with their id appended.
UPDATE "partners" p SET "name" = p."name" || ' (' || p."id" || ')' WHERE EXISTS (SELECT 1 FROM "partners" q WHERE lower(q."name") = lower(p."name") AND q."id" < p."id");--> statement-breakpoint
CREATE UNIQUE INDEX "partners_name_uq" ON "partners" USING btree (lower("name"));--> statement-breakpoint
-- Sync of orders by a partner's server (GET /partner/orders): every insert or update of an order
-- records the id of the transaction that wrote it. A reader returns only rows written by
-- transactions older than its snapshot's xmin (all of them have ended), in (change_txid, id) order,
-- so a row committed late can never fall behind a cursor already handed out.
ALTER TABLE "orders" ADD COLUMN "change_txid" bigint NOT NULL DEFAULT 0;--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_change_txid() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_txid := pg_current_xact_id()::text::bigint;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER orders_change_txid BEFORE INSERT OR UPDATE ON "orders" FOR EACH ROW EXECUTE FUNCTION orders_change_txid();--> statement-breakpoint
UPDATE "orders" SET "updated_at" = "updated_at";--> statement-breakpoint
CREATE INDEX "orders_partner_sync_idx" ON "orders" USING btree ("partner_id", "change_txid", "id");
