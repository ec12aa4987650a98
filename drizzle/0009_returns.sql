CREATE TABLE "return_history" (
	"id" text PRIMARY KEY NOT NULL,
	"return_request_id" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "return_items" (
	"id" text PRIMARY KEY NOT NULL,
	"return_request_id" text NOT NULL,
	"order_item_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"reason" text NOT NULL,
	"requested_amount" bigint NOT NULL,
	"reward_points" bigint NOT NULL,
	CONSTRAINT "return_items_quantity_positive" CHECK ("return_items"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "return_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"user_id" text NOT NULL,
	"order_id" text NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"detail" text NOT NULL,
	"requested_resolution" text NOT NULL,
	"requested_amount" bigint NOT NULL,
	"approved_amount" bigint,
	"image_urls" jsonb NOT NULL,
	"replacement_order_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "return_requests_approved_within_requested" CHECK ("return_requests"."approved_amount" is null or ("return_requests"."approved_amount" >= 0 and "return_requests"."approved_amount" <= "return_requests"."requested_amount"))
);
--> statement-breakpoint
ALTER TABLE "partner_pricing" ADD COLUMN "return_window_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "return_history" ADD CONSTRAINT "return_history_return_request_id_return_requests_id_fk" FOREIGN KEY ("return_request_id") REFERENCES "public"."return_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_items" ADD CONSTRAINT "return_items_return_request_id_return_requests_id_fk" FOREIGN KEY ("return_request_id") REFERENCES "public"."return_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "return_history_return_idx" ON "return_history" USING btree ("return_request_id","created_at");--> statement-breakpoint
CREATE INDEX "return_items_return_idx" ON "return_items" USING btree ("return_request_id");--> statement-breakpoint
CREATE INDEX "return_items_order_item_idx" ON "return_items" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "return_requests_user_idx" ON "return_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "return_requests_order_idx" ON "return_requests" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "return_requests_status_idx" ON "return_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_return_method_uq" ON "refunds" USING btree ("return_request_id","method") WHERE return_request_id is not null and status <> 'FAILED';