-- Account → Organizations lists every organization for the super administrator, who may disable and enable them.
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('organizations.manage', 'organizations', 'menu.organizationManage', NULL, NULL, false, false, NULL, 2, '{organization:manage}', 2);
--;
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code = 'organizations.manage' WHERE r.code = 'super_admin'
  ON CONFLICT DO NOTHING;
--;
CREATE INDEX organizations_list_idx ON organizations (created_at DESC, id DESC);
