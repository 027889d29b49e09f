-- The platform spine: organizations, users, roles, menus, sessions, agreements, one-time links, mail outbox.

CREATE TABLE organizations (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  abbreviation text,
  type smallint NOT NULL CHECK (type BETWEEN 0 AND 5),
  status smallint NOT NULL DEFAULT 1 CHECK (status IN (1, 2)),
  review_status smallint NOT NULL DEFAULT 1 CHECK (review_status IN (0, 1, 2)),
  review_reason text,
  reviewed_at timestamptz,
  reviewed_by bigint,
  license_code text,
  license_image text,
  logo text,
  representative_name text,
  phone text,
  email text,
  country text,
  state text,
  city text,
  district text,
  postal_code text,
  address text,
  region text NOT NULL CHECK (region IN ('us', 'eu', 'uk')),
  language text NOT NULL DEFAULT 'en',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX organizations_review_idx ON organizations (type, review_status, created_at DESC);
--;
-- The region is chosen once and can never change: enforced here, whatever code runs.
CREATE FUNCTION organizations_region_immutable() RETURNS trigger AS $$
BEGIN
  IF NEW.region IS DISTINCT FROM OLD.region THEN
    RAISE EXCEPTION 'region_immutable' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--;
CREATE TRIGGER organizations_region_immutable BEFORE UPDATE ON organizations
  FOR EACH ROW EXECUTE FUNCTION organizations_region_immutable();
--;
CREATE TABLE roles (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  org_type smallint NOT NULL,
  organization_id bigint REFERENCES organizations (id) ON DELETE CASCADE,
  is_default_for_registered boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
-- At most one default role for registered users per organization type.
CREATE UNIQUE INDEX roles_one_default_per_type ON roles (org_type) WHERE is_default_for_registered AND organization_id IS NULL;
--;
CREATE TABLE users (
  id bigserial PRIMARY KEY,
  user_code text NOT NULL UNIQUE,
  account text NOT NULL,
  email text NOT NULL,
  phone text,
  display_name text NOT NULL,
  nickname text,
  avatar text,
  gender smallint CHECK (gender IN (1, 2)),
  organization_id bigint NOT NULL REFERENCES organizations (id),
  role_id bigint NOT NULL REFERENCES roles (id),
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  is_org_admin boolean NOT NULL DEFAULT false,
  force_change_password boolean NOT NULL DEFAULT false,
  tooth_numbering_system text NOT NULL DEFAULT 'fdi' CHECK (tooth_numbering_system IN ('fdi', 'universal')),
  msg_receive_type text NOT NULL DEFAULT 'station' CHECK (msg_receive_type IN ('station', 'sms')),
  receive_email boolean NOT NULL DEFAULT true,
  language text NOT NULL DEFAULT 'en',
  account_changed boolean NOT NULL DEFAULT false,
  improvement_plan boolean NOT NULL DEFAULT false,
  password_hash text NOT NULL,
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE UNIQUE INDEX users_account_key ON users (lower(account));
--;
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
--;
CREATE UNIQUE INDEX users_phone_key ON users (phone) WHERE phone IS NOT NULL;
--;
CREATE INDEX users_organization_idx ON users (organization_id);
--;
CREATE TABLE menus (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  parent_code text REFERENCES menus (code),
  name text NOT NULL,
  path text,
  icon text,
  show_flag boolean NOT NULL DEFAULT true,
  show_always boolean NOT NULL DEFAULT false,
  component text,
  type smallint NOT NULL CHECK (type IN (1, 2)),
  api_permissions text[] NOT NULL DEFAULT '{}',
  sort integer NOT NULL DEFAULT 0
);
--;
CREATE TABLE role_menus (
  role_id bigint NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
  menu_id bigint NOT NULL REFERENCES menus (id) ON DELETE CASCADE,
  PRIMARY KEY (role_id, menu_id)
);
--;
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  save_login boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoke_reason text,
  identity_verified_until timestamptz,
  user_agent text,
  ip text
);
--;
CREATE INDEX sessions_user_idx ON sessions (user_id) WHERE revoked_at IS NULL;
--;
CREATE TABLE refresh_tokens (
  token_hash text PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  retired_at timestamptz
);
--;
CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);
--;
CREATE TABLE login_failures (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  failures integer NOT NULL DEFAULT 0,
  last_failure_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz
);
--;
CREATE TABLE captchas (
  id text PRIMARY KEY,
  answer text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
--;
CREATE TABLE agreements (
  type text PRIMARY KEY CHECK (type IN ('privacy', 'cookie', 'terms')),
  version integer NOT NULL,
  url text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE TABLE agreement_read_logs (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  agreement_type text NOT NULL REFERENCES agreements (type),
  version integer NOT NULL,
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, agreement_type, version)
);
--;
CREATE TABLE email_tokens (
  token_hash text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('confirm_email', 'reset_password', 'set_password', 'free_login')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
--;
CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, purpose);
--;
CREATE TABLE mail_outbox (
  id bigserial PRIMARY KEY,
  to_address text NOT NULL,
  language text NOT NULL,
  subject text NOT NULL,
  body_text text NOT NULL,
  status text NOT NULL CHECK (status IN ('stored', 'pending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
--;
CREATE INDEX mail_outbox_to_idx ON mail_outbox (lower(to_address), created_at DESC);
--;
CREATE INDEX mail_outbox_pending_idx ON mail_outbox (status) WHERE status IN ('pending', 'failed');
--;
-- Agreements in force; a new version makes every user read it again.
INSERT INTO agreements (type, version, url) VALUES
  ('privacy', 1, '/legal/privacy.html'),
  ('cookie', 1, '/legal/cookie.html'),
  ('terms', 1, '/legal/terms.html');
--;
-- The menu tree. Screens (type 1) become routes in the web app; buttons (type 2) only carry permissions.
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('dashboard', NULL, 'menu.dashboard', '/dashboard', 'DashboardOutlined', true, false, 'dashboard', 1, '{dashboard:view}', 10),
  ('account', NULL, 'menu.account', NULL, 'TeamOutlined', true, false, NULL, 1, '{}', 80),
  ('organizations', 'account', 'menu.organizations', '/account/organizations', 'BankOutlined', true, false, 'organizationReview', 1, '{organization:view}', 10),
  ('organizations.review', 'organizations', 'menu.organizationReview', NULL, NULL, false, false, NULL, 2, '{organization:review}', 1),
  ('outbox', 'account', 'menu.outbox', '/account/outbox', 'MailOutlined', true, false, 'outbox', 1, '{outbox:view}', 20),
  ('ownSpace', NULL, 'menu.ownSpace', '/own-space', 'UserOutlined', true, true, 'ownSpace', 1, '{ownspace:view}', 90),
  ('all', NULL, 'menu.all', NULL, NULL, false, false, NULL, 2, '{*:*:*}', 100);
--;
INSERT INTO roles (code, name, org_type, is_default_for_registered) VALUES
  ('super_admin', 'role.superAdmin', 1, false),
  ('clinic_admin', 'role.clinicAdmin', 2, true),
  ('lab_admin', 'role.labAdmin', 3, true),
  ('dealer_admin', 'role.dealerAdmin', 4, true),
  ('oem_admin', 'role.oemAdmin', 5, true);
--;
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON (
    (r.code = 'super_admin' AND m.code IN ('dashboard', 'account', 'organizations', 'organizations.review', 'outbox', 'ownSpace', 'all'))
    OR (r.code <> 'super_admin' AND m.code IN ('dashboard', 'ownSpace'))
  );
