-- Partner management is a permission, as the role editor promises: seeing partners (partner:view) on the screen
-- entry, managing them (partner:edit) as a button of it. Roles that had the screen keep both.
UPDATE menus SET api_permissions = '{partner:view}' WHERE code IN ('partners', 'customers');
--;
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('partners.edit', 'partners', 'menu.partnersEdit', NULL, NULL, false, false, NULL, 2, '{partner:edit}', 1),
  ('customers.edit', 'customers', 'menu.partnersEdit', NULL, NULL, false, false, NULL, 2, '{partner:edit}', 1),
  ('ownSpace.sharesManage', 'ownSpace', 'menu.sharesManage', NULL, NULL, false, false, NULL, 2, '{share:manage}', 3),
  ('ownSpace.contactsManage', 'ownSpace', 'menu.contactsManage', NULL, NULL, false, false, NULL, 2, '{contact:manage}', 4);
--;
INSERT INTO role_menus (role_id, menu_id)
  SELECT rm.role_id, child.id
    FROM role_menus rm
    JOIN menus parent ON parent.id = rm.menu_id AND parent.code IN ('partners', 'customers')
    JOIN menus child ON child.parent_code = parent.code AND child.code = parent.code || '.edit'
  ON CONFLICT DO NOTHING;
--;
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code IN ('ownSpace.sharesManage', 'ownSpace.contactsManage')
   WHERE r.code IN ('clinic_admin', 'lab_admin')
  ON CONFLICT DO NOTHING;
--;
-- Account names, emails and phone numbers are one namespace for sign-in: each user's normalized keys (case-folded
-- NFKC names and emails, E.164 phones), unique across the three kinds, written in the transaction that sets them.
-- A key two users held before this table existed is disputed: no user (NULL), its claimants in sign_in_disputes,
-- until one of them changes it. The keys of existing users are filled by the start-up step that follows this file
-- (phone numbers need the phone library).
CREATE TABLE sign_in_identifiers (
  identifier text PRIMARY KEY,
  user_id bigint REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('account', 'email', 'phone'))
);
--;
CREATE UNIQUE INDEX sign_in_identifiers_user_kind ON sign_in_identifiers (user_id, kind);
--;
CREATE TABLE sign_in_disputes (
  identifier text NOT NULL,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('account', 'email', 'phone')),
  found_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (identifier, user_id)
);
--;
CREATE INDEX sign_in_disputes_user_idx ON sign_in_disputes (user_id);
--;
-- The namespace is the one uniqueness rule: the users table's own unique indexes would make two concurrent sign-ups
-- fail on the row instead of being refused on the key. They stay as lookup indexes.
DROP INDEX users_account_key;
--;
DROP INDEX users_email_key;
--;
DROP INDEX users_phone_key;
--;
CREATE INDEX users_account_idx ON users (lower(account));
--;
CREATE INDEX users_email_idx ON users (lower(email));
--;
CREATE INDEX users_phone_idx ON users (phone) WHERE phone IS NOT NULL;
