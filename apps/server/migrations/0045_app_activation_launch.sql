-- An app registered for a developer may wait for them: a one-time activation link goes to its contact, and the
-- client ID and secret are shown to whoever opens it (the secret never passes through the administrator). Apps may
-- also name the address the portal opens them at (OpenID Connect's third-party initiated login).
ALTER TABLE oauth_apps DROP CONSTRAINT oauth_apps_status_check;
--;
ALTER TABLE oauth_apps
  ADD CONSTRAINT oauth_apps_status_check CHECK (status IN ('pending', 'active', 'suspended')),
  -- SHA-256 (hex) of the mailed activation sign, while the app is pending.
  ADD COLUMN activation_hash text,
  ADD COLUMN activation_expires_at timestamptz,
  ADD COLUMN launch_url text;
--;
CREATE UNIQUE INDEX oauth_apps_activation_idx ON oauth_apps (activation_hash) WHERE activation_hash IS NOT NULL;
