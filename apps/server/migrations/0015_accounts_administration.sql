-- Accounts administration: users and roles screens, roles of an organization's own, one button per order action.

-- A deleted user stays as a row (the author of cases, orders and events), without personal data.
ALTER TABLE users ADD COLUMN deleted_at timestamptz;
--;
-- The last sign-in is the newest session's start (users rows are not written at sign-in: every write to users
-- tells every process to forget its sessions).
CREATE INDEX sessions_user_created_idx ON sessions (user_id, created_at DESC);
--;
-- Built-in roles come with the portal (one administrator role per organization type) and cannot be changed from
-- the screens; an organization may add roles of its own (organization_id set), limited to what its type may have.
ALTER TABLE roles ADD COLUMN built_in boolean NOT NULL DEFAULT false;
--;
UPDATE roles SET built_in = true WHERE code IN ('super_admin', 'clinic_admin', 'lab_admin', 'dealer_admin', 'oem_admin');
--;
CREATE UNIQUE INDEX roles_name_per_owner ON roles (COALESCE(organization_id, 0), org_type, lower(name));
--;
CREATE INDEX users_org_list_idx ON users (organization_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
--;
CREATE INDEX users_list_idx ON users (created_at DESC, id DESC) WHERE deleted_at IS NULL;
--;
CREATE INDEX users_role_idx ON users (role_id);
--;
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('users', 'account', 'menu.users', '/account/users', 'UserOutlined', true, false, 'userList', 1, '{user:view}', 5),
  ('users.edit', 'users', 'menu.usersEdit', NULL, NULL, false, false, NULL, 2, '{user:edit}', 1),
  ('roles', 'account', 'menu.roles', '/account/roles', 'SafetyOutlined', true, false, 'roleList', 1, '{role:view}', 15),
  ('roles.edit', 'roles', 'menu.rolesEdit', NULL, NULL, false, false, NULL, 2, '{role:edit}', 1),
  ('orders.create', 'orders', 'menu.orderCreate', NULL, NULL, false, false, NULL, 2, '{order:create}', 2),
  ('orders.accept', 'orders', 'menu.orderAccept', NULL, NULL, false, false, NULL, 2, '{order:accept}', 3),
  ('orders.reject', 'orders', 'menu.orderReject', NULL, NULL, false, false, NULL, 2, '{order:reject}', 4),
  ('orders.produce', 'orders', 'menu.orderProduce', NULL, NULL, false, false, NULL, 2, '{order:produce}', 5),
  ('orders.ship', 'orders', 'menu.orderShip', NULL, NULL, false, false, NULL, 2, '{order:ship}', 6),
  ('orders.cancel', 'orders', 'menu.orderCancel', NULL, NULL, false, false, NULL, 2, '{order:cancel}', 7),
  ('orders.complete', 'orders', 'menu.orderComplete', NULL, NULL, false, false, NULL, 2, '{order:complete}', 8),
  ('orders.export', 'orders', 'menu.orderExport', NULL, NULL, false, false, NULL, 2, '{order:export}', 9);
--;
-- What each entry was called so far: the prescription settings of a laboratory.
UPDATE menus SET name = 'menu.orderSettings' WHERE code = 'orders.edit';
--;
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON (
    (r.built_in AND m.code IN ('account', 'users', 'users.edit', 'roles', 'roles.edit'))
    OR (r.code = 'clinic_admin' AND m.code IN ('orders.create', 'orders.cancel', 'orders.complete', 'orders.export'))
    OR (r.code = 'lab_admin' AND m.code IN ('orders.accept', 'orders.reject', 'orders.produce', 'orders.ship', 'orders.export'))
  )
  ON CONFLICT DO NOTHING;
--;
-- The clinic sends orders and the laboratory sets its prescription requirements: `orders.edit` stays the
-- laboratory's settings only.
DELETE FROM role_menus rm USING roles r, menus m
 WHERE rm.role_id = r.id AND rm.menu_id = m.id AND r.code = 'clinic_admin' AND m.code = 'orders.edit';
