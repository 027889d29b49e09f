-- What a laboratory requires in a prescription, per work type.
CREATE TABLE lab_required_fields (
  lab_organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  work_type text NOT NULL,
  fields text[] NOT NULL,
  PRIMARY KEY (lab_organization_id, work_type)
);
--;
-- Device limit type 1: the laboratories the device's clinic designates.
CREATE TABLE device_designated_labs (
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  lab_organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  PRIMARY KEY (device_id, lab_organization_id)
);
--;
-- Device limit type 2: the laboratories an OEM certifies for all its devices.
CREATE TABLE oem_certified_labs (
  oem_organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  lab_organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (oem_organization_id, lab_organization_id)
);
--;
-- The thread of an order, both sides writing.
CREATE TABLE order_messages (
  id bigserial PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  sender_user_id bigint REFERENCES users (id),
  sender_organization_id bigint NOT NULL REFERENCES organizations (id),
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX order_messages_idx ON order_messages (order_id, id);
--;
-- Files either side attaches to an order or to one of its messages; their bytes count for the uploader.
CREATE TABLE order_attachments (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  user_id bigint REFERENCES users (id),
  message_id bigint REFERENCES order_messages (id) ON DELETE SET NULL,
  name text NOT NULL,
  format text NOT NULL,
  size bigint NOT NULL,
  storage_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX order_attachments_idx ON order_attachments (order_id, id);
--;
-- Notifications per user (§3 message types 2 and 5); the text is rendered in the reader's language.
CREATE TABLE notifications (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  msg_type smallint NOT NULL CHECK (msg_type IN (2, 5)),
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  event text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}',
  read_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX notifications_user_idx ON notifications (user_id, id DESC);
--;
CREATE INDEX notifications_unread_idx ON notifications (user_id, msg_type) WHERE read_at IS NULL;
--;
-- Dashboards count accepted orders per day.
CREATE INDEX order_events_action_idx ON order_events (action, created_at);
--;
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('orders', NULL, 'menu.orders', '/order-management', 'ShoppingCartOutlined', true, false, 'orderList', 1, '{order:view}', 30),
  ('orderDetail', 'orders', 'menu.orderDetail', '/order-management/detail/:id', NULL, false, false, 'orderDetail', 1, '{order:view}', 1),
  ('orders.edit', 'orders', 'menu.orderEdit', NULL, NULL, false, false, NULL, 2, '{order:edit}', 2);
--;
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code IN ('orders', 'orderDetail', 'orders.edit')
   WHERE r.code IN ('clinic_admin', 'lab_admin');
--;
-- The list indexes cover the list filters too, so filtered pages and their totals stay index-only.
DROP INDEX orders_clinic_list_idx;
--;
DROP INDEX orders_lab_list_idx;
--;
CREATE INDEX orders_clinic_list_idx ON orders (clinic_organization_id, created_at DESC, id DESC) INCLUDE (status, order_type, partnership_id);
--;
CREATE INDEX orders_lab_list_idx ON orders (lab_organization_id, created_at DESC, id DESC) INCLUDE (status, order_type, partnership_id);
