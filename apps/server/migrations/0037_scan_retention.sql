-- How long after an order's completion its laboratory may still download the patient's scans, set by the clinic.
ALTER TABLE organizations
  ADD COLUMN scan_retention_days integer NOT NULL DEFAULT 90 CHECK (scan_retention_days BETWEEN 7 AND 3650);
--;
-- When the order reached `completed` (the retention counts from it).
ALTER TABLE orders ADD COLUMN completed_at timestamptz;
--;
-- Orders completed before the column existed: the newest move to `completed` in their history, else their last change.
UPDATE orders o
   SET completed_at = COALESCE(
         (SELECT max(e.created_at) FROM order_events e WHERE e.order_id = o.id AND e.to_status = 'completed'),
         o.updated_at)
 WHERE o.status = 'completed';
