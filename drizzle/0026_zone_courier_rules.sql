CREATE TABLE "zone_courier_rules" (
	"zone_id" text PRIMARY KEY NOT NULL,
	"carrier" text,
	"courier_rule" text,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "zone_courier_rules_something" CHECK ("zone_courier_rules"."carrier" is not null or "zone_courier_rules"."courier_rule" is not null),
	CONSTRAINT "zone_courier_rules_rule" CHECK ("zone_courier_rules"."courier_rule" is null or "zone_courier_rules"."courier_rule" in ('RECOMMENDED', 'CHEAPEST', 'FASTEST'))
);
