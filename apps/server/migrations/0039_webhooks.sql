-- Webhooks (docs/product-decisions.md, "Webhooks"): an organization's endpoints receive its order and case events,
-- signed per the Standard Webhooks specification. Secrets are kept sealed (AES-256-GCM under WEBHOOK_SECRET_KEY);
-- after a rotation the previous secret keeps signing for a day.
CREATE TABLE webhook_endpoints (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  url text NOT NULL,
  events text[] NOT NULL,
  description text NOT NULL DEFAULT '',
  secret_sealed text NOT NULL,
  previous_secret_sealed text,
  previous_secret_until timestamptz,
  enabled boolean NOT NULL DEFAULT true,
  -- 'gone' (the receiver answered 410), 'failing' (a delivery's retries ran out) or 'manual'.
  disabled_reason text,
  disabled_at timestamptz,
  -- The position of the last event the dispatcher looked at for this endpoint (events module).
  event_position bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX webhook_endpoints_organization_idx ON webhook_endpoints (organization_id);
--;
-- One message to one endpoint: its body is fixed once made, so every attempt and replay sends the same bytes.
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  endpoint_id bigint NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  message_id text NOT NULL,
  event_type text NOT NULL,
  payload text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id DESC);
--;
CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at);
--;
CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  status_code integer,
  latency_ms integer NOT NULL,
  response text NOT NULL DEFAULT '',
  error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id);
--;
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('ownSpace.webhooksManage', 'ownSpace', 'menu.webhooksManage', NULL, NULL, false, false, NULL, 2, '{webhook:manage}', 5);
--;
-- Clinic and laboratory administrators manage their organization's webhooks.
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code = 'ownSpace.webhooksManage'
   WHERE r.code IN ('clinic_admin', 'lab_admin')
  ON CONFLICT DO NOTHING;
