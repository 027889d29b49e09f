-- The update log: entries the super administrator writes in Markdown per language, with a version and a date.
-- The Markdown is kept for editing; the HTML readers get is rendered and sanitized once, when it is saved.
CREATE TABLE update_log_entries (
  id bigserial PRIMARY KEY,
  version text NOT NULL,
  released_on date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX update_log_entries_newest_idx ON update_log_entries (released_on DESC, id DESC);
--;
CREATE TABLE update_log_texts (
  entry_id bigint NOT NULL REFERENCES update_log_entries (id) ON DELETE CASCADE,
  language text NOT NULL,
  title text NOT NULL,
  markdown text NOT NULL,
  html text NOT NULL,
  PRIMARY KEY (entry_id, language)
);
--;
-- The entries each user has opened while signed in: the "what's new" mark shows while the newest is not among
-- them. A table of its own, because every write to users makes every process forget its sessions.
CREATE TABLE update_log_reads (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  entry_id bigint NOT NULL REFERENCES update_log_entries (id) ON DELETE CASCADE,
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, entry_id)
);
--;
CREATE INDEX update_log_reads_entry_idx ON update_log_reads (entry_id);
--;
-- Anonymous usage of the improvement programme: counted per week, screen, kind and action as they arrive. No user,
-- organization, address or exact time is stored, so no row can be traced back to a person.
CREATE TABLE usage_weekly (
  week_start date NOT NULL,
  screen text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('screen', 'action')),
  action text NOT NULL DEFAULT '',
  events bigint NOT NULL DEFAULT 0,
  load_ms_total bigint NOT NULL DEFAULT 0,
  load_samples bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (week_start, screen, kind, action)
);
--;
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('software', 'account', 'menu.software', '/account/update-log', 'NotificationOutlined', true, false, 'updateLog', 1, '{software:manage}', 30);
--;
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code = 'software' WHERE r.code = 'super_admin'
  ON CONFLICT DO NOTHING;
