ALTER TABLE "shipments" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "resolution_note" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "resolved_by" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_resolution" CHECK ("shipments"."resolution" is null or ("shipments"."resolution" in ('RESHIP', 'REFUND') and "shipments"."status" in ('LOST', 'DAMAGED') and "shipments"."settled_at" is not null and "shipments"."resolved_by" is not null));