-- Remakes: a clinic asks its laboratory to make a completed or shipped order again; the remake is a new order that
-- names the original, the reason (REMAKE_REASONS) and the clinic's note.
ALTER TABLE orders
  ADD COLUMN remake_of bigint REFERENCES orders (id),
  ADD COLUMN remake_reason text CHECK (remake_reason IN ('fit', 'shade', 'contacts', 'occlusion', 'breakage', 'other')),
  ADD COLUMN remake_note text,
  ADD CONSTRAINT orders_remake_reason_given CHECK ((remake_of IS NULL) = (remake_reason IS NULL));
--;
CREATE INDEX orders_remake_of_idx ON orders (remake_of) WHERE remake_of IS NOT NULL;
--;
-- A laboratory's remakes by day and reason, for its scorecard: few rows (remakes are a small share of orders).
CREATE INDEX orders_lab_remakes_idx ON orders (lab_organization_id, created_at) INCLUDE (remake_reason, status) WHERE remake_of IS NOT NULL;
--;
-- An event about another order: the remake asked for on the original, the original on the remake's creation.
ALTER TABLE order_events ADD COLUMN linked_order_id bigint REFERENCES orders (id);
--;
-- The shipments of a laboratory per UTC day of the ship event and whole days from the order's creation to it, written in
-- the shipping transaction, so a scorecard sums a few thousand rows instead of reading every order.
CREATE TABLE lab_scorecard_days (
  lab_organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  day date NOT NULL,
  turnaround_days integer NOT NULL CHECK (turnaround_days >= 0),
  shipped integer NOT NULL,
  due_counted integer NOT NULL,
  on_time integer NOT NULL,
  PRIMARY KEY (lab_organization_id, day, turnaround_days)
);
--;
-- The orders shipped before this migration, from their ship events (their due dates as they are now).
INSERT INTO lab_scorecard_days (lab_organization_id, day, turnaround_days, shipped, due_counted, on_time)
SELECT o.lab_organization_id,
       (e.created_at AT TIME ZONE 'UTC')::date AS day,
       GREATEST((e.created_at AT TIME ZONE 'UTC')::date - (o.created_at AT TIME ZONE 'UTC')::date, 0) AS turnaround_days,
       count(*),
       count(COALESCE(o.estimated_delivery_date, o.requested_delivery_date)),
       count(*) FILTER (WHERE (e.created_at AT TIME ZONE 'UTC')::date <= COALESCE(o.estimated_delivery_date, o.requested_delivery_date))
  FROM order_events e
  JOIN orders o ON o.id = e.order_id
 WHERE e.action = 'ship'
 GROUP BY 1, 2, 3;
--;
-- Each laboratory's scorecard as last computed, for the day it was computed. Every change to its figures (a shipment,
-- a remake asked or withdrawn) bumps the version and drops the card in the changing transaction; a reader computes it
-- again and keeps it only if the version is still the one it read.
CREATE TABLE lab_scorecards (
  lab_organization_id bigint PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  version bigint NOT NULL DEFAULT 0,
  as_of date,
  figures jsonb
);
