-- Well-signed carrier callbacks that could not be applied in full, kept once per carrier and body for the back office (decision 0044).
CREATE TABLE "carrier_callbacks" (
	"id" text PRIMARY KEY NOT NULL,
	"carrier" text NOT NULL,
	"body_sha256" text NOT NULL,
	"body" text NOT NULL,
	"problem" text NOT NULL,
	"detail" text NOT NULL,
	"unknown_awbs" text[] DEFAULT '{}'::text[] NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "carrier_callbacks_body_uq" ON "carrier_callbacks" USING btree ("carrier","body_sha256");--> statement-breakpoint
CREATE INDEX "carrier_callbacks_received_idx" ON "carrier_callbacks" USING btree ("received_at","id");