-- Notices of unread chat messages (docs/product-decisions.md, "Chat"): a user is online while a live socket of theirs
-- is open, which every process marks here on its heartbeat; a station letter about a conversation is a notification
-- that names the conversation instead of an order.
CREATE TABLE live_presence (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  seen_at timestamptz NOT NULL
);
--;
ALTER TABLE notifications ALTER COLUMN order_id DROP NOT NULL;
--;
ALTER TABLE notifications ADD COLUMN conversation_id bigint REFERENCES chat_conversations (id) ON DELETE CASCADE;
--;
ALTER TABLE notifications
  ADD CONSTRAINT notifications_subject_check CHECK ((order_id IS NULL) <> (conversation_id IS NULL));
--;
-- Messages of a conversation in time order, for the notices' look at what waits unread.
CREATE INDEX chat_messages_created_idx ON chat_messages (created_at);
