-- A laboratory's product catalogue: what clinics order from it, in which materials, in how many working days.
CREATE TABLE lab_products (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  lab_organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  work_type text NOT NULL,
  materials text[] NOT NULL DEFAULT '{}',
  turnaround_days integer NOT NULL CHECK (turnaround_days BETWEEN 0 AND 120),
  price numeric(12, 2) CHECK (price >= 0),
  currency text,
  required_fields text[] NOT NULL DEFAULT '{}',
  -- Removed products stay for the orders that name them.
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (price IS NULL OR currency IS NOT NULL)
);
--;
-- One name per product in a laboratory's live catalogue, whatever its case.
CREATE UNIQUE INDEX lab_products_name_idx ON lab_products (lab_organization_id, lower(name)) WHERE deleted_at IS NULL;
--;
-- A laboratory's working weekdays (ISO 1 Monday … 7 Sunday) and the timezone its days are counted in.
CREATE TABLE lab_calendars (
  lab_organization_id bigint PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  working_weekdays smallint[] NOT NULL CHECK (cardinality(working_weekdays) BETWEEN 1 AND 7),
  time_zone text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
--;
-- Days a laboratory does not work whatever their weekday: holidays, closures.
CREATE TABLE lab_closed_dates (
  lab_organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  closed_on date NOT NULL,
  note text,
  PRIMARY KEY (lab_organization_id, closed_on)
);
--;
ALTER TABLE orders ADD COLUMN product_id bigint REFERENCES lab_products (id);
