-- Apps (docs/product-decisions.md, "Apps"): the portal as an OAuth 2.0 / OpenID Connect provider. The super
-- administrator registers apps; the provider keeps its grants, codes and tokens in oauth_models.
CREATE TABLE oauth_apps (
  id bigserial PRIMARY KEY,
  -- The app's client_id.
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  logo_url text,
  redirect_uris text[] NOT NULL,
  scopes text[] NOT NULL,
  contact_email text NOT NULL,
  -- SHA-256 of the client secret (hex) for a confidential app; NULL for a public one (PKCE alone).
  secret_hash text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--;
-- The provider's models (grants, sessions, interactions, codes, access and refresh tokens), one row each.
CREATE TABLE oauth_models (
  kind text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  uid text,
  user_code text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (kind, id)
);
--;
CREATE INDEX oauth_models_grant_idx ON oauth_models (grant_id) WHERE grant_id IS NOT NULL;
--;
CREATE INDEX oauth_models_uid_idx ON oauth_models (uid) WHERE uid IS NOT NULL;
--;
CREATE INDEX oauth_models_expires_idx ON oauth_models (expires_at) WHERE expires_at IS NOT NULL;
--;
-- The provider's signing keys (a JSON Web Key Set), made once and kept sealed under WEBHOOK_SECRET_KEY's key.
CREATE TABLE oauth_keys (
  id smallint PRIMARY KEY CHECK (id = 1),
  jwks_sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
-- A user's authorization of an app is the provider's grant: one live row per user and app.
ALTER TABLE authorized_apps
  ADD COLUMN app_id bigint REFERENCES oauth_apps (id) ON DELETE CASCADE,
  ADD COLUMN grant_id text,
  ADD COLUMN last_used_at timestamptz;
--;
CREATE UNIQUE INDEX authorized_apps_live_idx ON authorized_apps (user_id, app_id) WHERE revoked_at IS NULL AND app_id IS NOT NULL;
