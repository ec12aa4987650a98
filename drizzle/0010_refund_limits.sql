-- Refunds of an order never exceed what was paid for it: provider refunds stay within the captured
-- provider payments, and all refunds together within everything paid (provider, Wallet Cash, and
-- cash collected on delivery). Checked by the database on every insert or update, whatever the code does.
CREATE FUNCTION refunds_within_paid() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  provider_paid bigint;
  total_paid bigint;
  provider_refunded bigint;
  total_refunded bigint;
BEGIN
  SELECT coalesce(sum(p.amount), 0) INTO provider_paid FROM payments p WHERE p.order_id = NEW.order_id AND p.status = 'SUCCEEDED';
  SELECT provider_paid + o.wallet_cash_used
         + CASE WHEN o.payment_mode = 'COD' AND o.payment_status IN ('PAID', 'PARTIALLY_REFUNDED', 'REFUNDED') THEN o.amount_payable ELSE 0 END
    INTO total_paid FROM orders o WHERE o.id = NEW.order_id;
  SELECT coalesce(sum(r.amount) FILTER (WHERE r.method = 'ORIGINAL_PAYMENT'), 0), coalesce(sum(r.amount), 0)
    INTO provider_refunded, total_refunded FROM refunds r WHERE r.order_id = NEW.order_id AND r.status <> 'FAILED';
  IF provider_refunded > provider_paid OR total_refunded > total_paid THEN
    RAISE EXCEPTION 'Refunds of order % would exceed what was paid for it', NEW.order_id USING ERRCODE = '23514';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER refunds_within_paid AFTER INSERT OR UPDATE ON refunds
  DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION refunds_within_paid();
