-- Scanner permissions: every organization administrator sees the scanners of their organization
-- (own space); OEMs import catalogues and assign scanners to dealers.
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('ownSpace.scanners', 'ownSpace', 'menu.scanners', NULL, NULL, false, false, NULL, 2, '{device:view,device:edit}', 1),
  ('ownSpace.catalog', 'ownSpace', 'menu.catalogImport', NULL, NULL, false, false, NULL, 2, '{device:import,device:assign}', 2);
--;
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code = 'ownSpace.scanners' WHERE r.code IN ('clinic_admin', 'lab_admin', 'dealer_admin', 'oem_admin');
--;
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code = 'ownSpace.catalog' WHERE r.code = 'oem_admin';
