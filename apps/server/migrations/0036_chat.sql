-- Chat (docs/product-decisions.md, "Chat"): one conversation per partnership (clinic and laboratory) and one support
-- conversation between an organization and its site's operator. Messages carry the id their client made, so a
-- resend stores nothing twice; read marks are per user.
CREATE TABLE chat_conversations (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('partner', 'support')),
  partnership_id bigint UNIQUE REFERENCES partnerships (id) ON DELETE CASCADE,
  -- Partner: the clinic and the laboratory. Support: the organization and the operator.
  first_organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  second_organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  last_message_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'partner') = (partnership_id IS NOT NULL)),
  CHECK (first_organization_id <> second_organization_id)
);
--;
CREATE UNIQUE INDEX chat_conversations_support_key ON chat_conversations (first_organization_id) WHERE kind = 'support';
--;
CREATE INDEX chat_conversations_first_idx ON chat_conversations (first_organization_id);
--;
CREATE INDEX chat_conversations_second_idx ON chat_conversations (second_organization_id);
--;
CREATE TABLE chat_messages (
  id bigserial PRIMARY KEY,
  conversation_id bigint NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
  client_id text NOT NULL,
  sender_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  sender_organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  body text NOT NULL,
  -- Links to cases and orders: [{"kind": "case" | "order", "code": "..."}], checked when sent.
  refs jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
-- A client's id is unique for its sender in a conversation: the same id again is the same message.
CREATE UNIQUE INDEX chat_messages_client_key ON chat_messages (conversation_id, sender_organization_id, client_id);
--;
CREATE INDEX chat_messages_conversation_idx ON chat_messages (conversation_id, id);
--;
-- Substring search in any script (Chinese and Japanese have no spaces): a trigram index serves ILIKE '%…%'. Where
-- the pg_trgm extension cannot be created the search still works, by scanning the conversation's messages.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXECUTE 'CREATE INDEX chat_messages_body_trgm ON chat_messages USING gin (body gin_trgm_ops)';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable: chat search scans';
END;
$$;
--;
CREATE TABLE chat_attachments (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  conversation_id bigint NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
  message_id bigint REFERENCES chat_messages (id) ON DELETE CASCADE,
  organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  name text NOT NULL,
  format text NOT NULL,
  size bigint NOT NULL,
  storage_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX chat_attachments_message_idx ON chat_attachments (message_id);
--;
CREATE INDEX chat_attachments_conversation_idx ON chat_attachments (conversation_id);
--;
-- Each user's read mark: every message up to this one is read.
CREATE TABLE chat_reads (
  conversation_id bigint NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  last_read_message_id bigint NOT NULL,
  read_at timestamptz NOT NULL DEFAULT now(),
  -- When this user was last told of unread messages (station letter or SMS).
  noticed_message_id bigint,
  PRIMARY KEY (conversation_id, user_id)
);
--;
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('chat', NULL, 'menu.chat', '/chat', 'MessageOutlined', true, false, 'chat', 1, '{chat:view}', 45),
  ('chat.send', 'chat', 'menu.chatSend', NULL, NULL, false, false, NULL, 2, '{chat:send}', 1),
  ('chat.export', 'chat', 'menu.chatExport', NULL, NULL, false, false, NULL, 2, '{chat:export}', 2);
--;
-- Clinic and laboratory administrators chat with partners and support; the operator answers support.
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code IN ('chat', 'chat.send', 'chat.export')
   WHERE r.code IN ('clinic_admin', 'lab_admin', 'super_admin')
  ON CONFLICT DO NOTHING;
