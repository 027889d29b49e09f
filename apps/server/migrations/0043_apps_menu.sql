-- Account → Apps: the super administrator's register of OAuth apps (docs/product-decisions.md, "Apps").
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('apps', 'account', 'menu.apps', '/account/apps', 'AppstoreOutlined', true, false, 'appRegister', 1, '{app:manage}', 31);
--;
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code = 'apps' WHERE r.code = 'super_admin'
  ON CONFLICT DO NOTHING;
