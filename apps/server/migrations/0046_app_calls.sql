-- Every call an app makes with a user's token, counted per minute, organization, app, user and call: what the
-- organization's administrators read (own space → App activity), and what the per-app and per-user limits count.
CREATE TABLE app_call_minutes (
  organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  minute timestamptz NOT NULL,
  app_id bigint NOT NULL REFERENCES oauth_apps (id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  call text NOT NULL,
  calls integer NOT NULL,
  -- Answered with an error (beyond the token's scopes or the user's role, over a limit, bad input).
  refused integer NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, minute, app_id, user_id, call)
);
--;
CREATE INDEX app_call_minutes_minute_idx ON app_call_minutes (minute, app_id);
--;
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('ownSpace.appActivity', 'ownSpace', 'menu.appActivity', NULL, NULL, false, false, NULL, 2, '{app:audit}', 6);
--;
-- Every organization's administrators read which apps called the API for their members.
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code = 'ownSpace.appActivity'
   WHERE r.code IN ('clinic_admin', 'lab_admin', 'dealer_admin', 'oem_admin')
  ON CONFLICT DO NOTHING;
