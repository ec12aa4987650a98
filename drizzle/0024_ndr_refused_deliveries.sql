CREATE TABLE "shipment_ndr_actions" (
	"id" text PRIMARY KEY NOT NULL,
	"shipment_id" text NOT NULL,
	"action" text NOT NULL,
	"deferred_date" date,
	"address_line" text,
	"phone" text,
	"note" text,
	"requested_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "shipment_ndr_actions_action" CHECK ("shipment_ndr_actions"."action" in ('REATTEMPT', 'RTO'))
);
--> statement-breakpoint
ALTER TABLE "partner_cod_rules" ADD COLUMN "max_refused_deliveries" integer;--> statement-breakpoint
ALTER TABLE "partner_cod_rules" ADD COLUMN "refused_window_days" integer;--> statement-breakpoint
ALTER TABLE "shipment_events" ADD COLUMN "refused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "shipment_ndr_actions" ADD CONSTRAINT "shipment_ndr_actions_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipment_ndr_actions_shipment_idx" ON "shipment_ndr_actions" USING btree ("shipment_id","created_at");--> statement-breakpoint
CREATE INDEX "shipment_events_refused_idx" ON "shipment_events" USING btree ("shipment_id","occurred_at") WHERE refused;--> statement-breakpoint
ALTER TABLE "partner_cod_rules" ADD CONSTRAINT "partner_cod_rules_refused_pair" CHECK (("partner_cod_rules"."max_refused_deliveries" is null) = ("partner_cod_rules"."refused_window_days" is null) and coalesce("partner_cod_rules"."max_refused_deliveries", 1) >= 1 and coalesce("partner_cod_rules"."refused_window_days", 1) >= 1);