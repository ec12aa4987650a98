CREATE TABLE "cod_blocked_pincodes" (
	"partner_id" text NOT NULL,
	"pincode" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "cod_blocked_pincodes_partner_id_pincode_pk" PRIMARY KEY("partner_id","pincode")
);
--> statement-breakpoint
CREATE TABLE "partner_cod_rules" (
	"partner_id" text PRIMARY KEY NOT NULL,
	"max_open_cod_orders" integer,
	"max_cod_value" bigint,
	"rto_limit" integer,
	"rto_window_days" integer,
	"first_order_cap" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_cod_rules_in_range" CHECK (coalesce("partner_cod_rules"."max_open_cod_orders", 1) >= 1 and coalesce("partner_cod_rules"."max_cod_value", 0) >= 0 and coalesce("partner_cod_rules"."rto_limit", 1) >= 1 and coalesce("partner_cod_rules"."rto_window_days", 1) >= 1 and coalesce("partner_cod_rules"."first_order_cap", 0) >= 0),
	CONSTRAINT "partner_cod_rules_rto_pair" CHECK (("partner_cod_rules"."rto_limit" is null) = ("partner_cod_rules"."rto_window_days" is null))
);
