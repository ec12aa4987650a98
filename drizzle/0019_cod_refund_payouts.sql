CREATE TABLE "payout_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"user_id" text NOT NULL,
	"method" text NOT NULL,
	"vpa" text,
	"account_holder_name" text,
	"ifsc" text,
	"account_number_sealed" text,
	"account_number_last4" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payout_accounts_method_fields" CHECK (("payout_accounts"."method" = 'UPI' and "payout_accounts"."vpa" is not null) or ("payout_accounts"."method" = 'BANK' and "payout_accounts"."ifsc" is not null and "payout_accounts"."account_number_sealed" is not null and "payout_accounts"."account_number_last4" is not null and "payout_accounts"."account_holder_name" is not null))
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payout_account_id" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payout_to" jsonb;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payout_key" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "outcome_unknown" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "payout_account_id" text;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "refund_to" jsonb;--> statement-breakpoint
CREATE INDEX "payout_accounts_user_idx" ON "payout_accounts" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payout_account_id_payout_accounts_id_fk" FOREIGN KEY ("payout_account_id") REFERENCES "public"."payout_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_payout_key_uq" ON "refunds" USING btree ("payout_key") WHERE payout_key is not null and status <> 'FAILED';
--> statement-breakpoint
-- The refund limit (0010, 0011) learns payouts: what is paid out to a UPI ID or a bank account comes
-- out of the cash collected on delivery, never more, besides the order's total.
CREATE OR REPLACE FUNCTION refunds_within_paid() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  provider_paid bigint;
  cash_collected bigint;
  total_paid bigint;
  provider_refunded bigint;
  paid_out bigint;
  total_refunded bigint;
BEGIN
  IF NEW.status <> 'FAILED' AND (TG_OP = 'INSERT' OR OLD.status = 'FAILED' OR NEW.amount > OLD.amount OR NEW.method IS DISTINCT FROM OLD.method OR NEW.order_id IS DISTINCT FROM OLD.order_id) THEN
    PERFORM 1 FROM orders o WHERE o.id = NEW.order_id FOR NO KEY UPDATE;
  END IF;
  SELECT coalesce(sum(p.amount), 0) INTO provider_paid FROM payments p WHERE p.order_id = NEW.order_id AND p.status = 'SUCCEEDED';
  SELECT CASE WHEN o.payment_mode = 'COD' AND o.payment_status IN ('PAID', 'PARTIALLY_REFUNDED', 'REFUNDED') THEN o.amount_payable ELSE 0 END
    INTO cash_collected FROM orders o WHERE o.id = NEW.order_id;
  SELECT provider_paid + o.wallet_cash_used + cash_collected INTO total_paid FROM orders o WHERE o.id = NEW.order_id;
  SELECT coalesce(sum(r.amount) FILTER (WHERE r.method = 'ORIGINAL_PAYMENT'), 0),
         coalesce(sum(r.amount) FILTER (WHERE r.method IN ('UPI_PAYOUT', 'BANK_PAYOUT')), 0),
         coalesce(sum(r.amount), 0)
    INTO provider_refunded, paid_out, total_refunded FROM refunds r WHERE r.order_id = NEW.order_id AND r.status <> 'FAILED';
  IF provider_refunded > provider_paid OR paid_out > cash_collected OR total_refunded > total_paid THEN
    RAISE EXCEPTION 'Refunds of order % would exceed what was paid for it', NEW.order_id USING ERRCODE = '23514';
  END IF;
  RETURN NEW;
END $$;
