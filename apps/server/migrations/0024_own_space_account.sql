-- Own space: account info (avatar, email change, one account rename), receiving settings, authorized apps, and the
-- organization's contacts who receive its order mails.

-- An email change waits here until the link mailed to the new address is opened.
ALTER TABLE users ADD COLUMN pending_email text;
--;
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_purpose_check;
--;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check
  CHECK (purpose IN ('confirm_email', 'reset_password', 'set_password', 'free_login', 'change_email'));
--;
-- A user's avatar: small cropped images, served by an unguessable key (users.avatar holds its address).
CREATE TABLE user_avatars (
  key text PRIMARY KEY,
  user_id bigint NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp')),
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
-- Third-party applications a user authorized to act for them; revoking keeps the row with its time.
CREATE TABLE authorized_apps (
  id bigserial PRIMARY KEY,
  app_code text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  app_name text NOT NULL,
  scopes text NOT NULL DEFAULT '',
  authorized_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
--;
CREATE INDEX authorized_apps_user_idx ON authorized_apps (user_id) WHERE revoked_at IS NULL;
--;
-- People outside the portal who receive an organization's order mails once they confirm their address.
CREATE TABLE company_contacts (
  id bigserial PRIMARY KEY,
  contact_code text NOT NULL UNIQUE,
  organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_name text NOT NULL,
  email text NOT NULL,
  verify_token_hash text NOT NULL UNIQUE,
  verify_expires_at timestamptz NOT NULL,
  verified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE UNIQUE INDEX company_contacts_email_key ON company_contacts (organization_id, lower(email));
--;
-- An order event a verified contact is due a mail about, written with the change and mailed with its batch.
CREATE TABLE contact_order_notices (
  id bigserial PRIMARY KEY,
  contact_id bigint NOT NULL REFERENCES company_contacts (id) ON DELETE CASCADE,
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  event text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}',
  mail_batch uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX contact_order_notices_batch_idx ON contact_order_notices (mail_batch);
