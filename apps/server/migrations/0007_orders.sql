-- Orders: a clinic sends a case to a laboratory it is partnered with; both sides see one timeline.
CREATE TABLE orders (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  clinic_organization_id bigint NOT NULL REFERENCES organizations (id),
  lab_organization_id bigint NOT NULL REFERENCES organizations (id),
  partnership_id bigint NOT NULL REFERENCES partnerships (id),
  case_id bigint NOT NULL REFERENCES cases (id),
  order_type text NOT NULL,
  work_types text[] NOT NULL,
  teeth jsonb NOT NULL DEFAULT '[]',
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'ready', 'shipped', 'completed', 'canceled', 'rejected')),
  processing boolean NOT NULL DEFAULT false,
  requested_delivery_date date,
  ship_date date,
  tracking_number text,
  estimated_delivery_date date,
  memo text,
  share_patient_name boolean NOT NULL DEFAULT true,
  created_by bigint REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--;
-- Each side's default list: newest first within the organization.
CREATE INDEX orders_clinic_list_idx ON orders (clinic_organization_id, created_at DESC, id DESC);
--;
CREATE INDEX orders_lab_list_idx ON orders (lab_organization_id, created_at DESC, id DESC);
--;
CREATE INDEX orders_case_idx ON orders (case_id);
--;
CREATE TABLE order_events (
  id bigserial PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  action text NOT NULL,
  from_status text,
  to_status text NOT NULL,
  reason text,
  actor_user_id bigint REFERENCES users (id),
  actor_organization_id bigint REFERENCES organizations (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX order_events_idx ON order_events (order_id, id);
