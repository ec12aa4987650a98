-- The stock location a forward parcel leaves from and its pickup name at the carrier as booked (decision 0043); null: the carrier's configured pickup location.
ALTER TABLE "shipments" ADD COLUMN "location_id" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "pickup_name" text;
