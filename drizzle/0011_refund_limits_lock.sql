-- The refund limit of 0010, now race-free: two transactions inserting refunds of one order at once
-- each saw only its own new row and both passed (each fit alone, together above what was paid).
-- The check now first takes the order row (FOR NO KEY UPDATE: it waits for the order lock the
-- code takes, and for another refund's check, but not for foreign-key checks), and its sums are
-- read after that wait, so they include a refund committed meanwhile. Only changes that can raise
-- the sums take the lock; settling a refund (PENDING -> SUCCEEDED or FAILED) does not.
CREATE OR REPLACE FUNCTION refunds_within_paid() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  provider_paid bigint;
  total_paid bigint;
  provider_refunded bigint;
  total_refunded bigint;
BEGIN
  IF NEW.status <> 'FAILED' AND (TG_OP = 'INSERT' OR OLD.status = 'FAILED' OR NEW.amount > OLD.amount OR NEW.method IS DISTINCT FROM OLD.method OR NEW.order_id IS DISTINCT FROM OLD.order_id) THEN
    PERFORM 1 FROM orders o WHERE o.id = NEW.order_id FOR NO KEY UPDATE;
  END IF;
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
