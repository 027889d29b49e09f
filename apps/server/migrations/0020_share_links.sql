-- Share links: a case, an order (later a report) opened without signing in by whoever holds the link.
-- resource_id names a row of the table resource_type says; the service checks the sharer can see it.
CREATE TABLE shares (
  id bigserial PRIMARY KEY,
  -- 128 random bits, base64url.
  code text NOT NULL UNIQUE,
  resource_type text NOT NULL CHECK (resource_type IN ('case', 'order', 'report')),
  resource_id bigint NOT NULL,
  organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- argon2id, like user passwords; null: no password.
  password_hash text,
  expires_at timestamptz,
  show_patient_name boolean NOT NULL DEFAULT false,
  revoked_at timestamptz,
  -- Raised whenever the share changes, so a remembered share sign is asked for again.
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX shares_resource_idx ON shares (organization_id, resource_type, resource_id, created_at DESC);
--;
-- Every opening of a share: nothing about a visitor beyond when, how, a coarse user agent and a hashed address.
CREATE TABLE share_access_log (
  id bigserial PRIMARY KEY,
  share_id bigint NOT NULL REFERENCES shares (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  kind text NOT NULL CHECK (kind IN ('page', 'pdf', 'file')),
  user_agent text NOT NULL CHECK (char_length(user_agent) <= 64),
  address_hash text NOT NULL CHECK (char_length(address_hash) <= 32)
);
--;
CREATE INDEX share_access_log_share_idx ON share_access_log (share_id, at DESC);
