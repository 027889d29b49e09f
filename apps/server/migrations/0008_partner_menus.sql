-- The partner screens exist now: clinics find them as My Partner, laboratories as Customer.
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('partners', NULL, 'menu.partners', '/partner-management', 'ApartmentOutlined', true, false, 'partnerList', 1, '{partner:view,partner:edit}', 40),
  ('customers', NULL, 'menu.customers', '/customer-management', 'ApartmentOutlined', true, false, 'partnerList', 1, '{partner:view,partner:edit}', 40);
--;
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON (r.code = 'clinic_admin' AND m.code = 'partners') OR (r.code = 'lab_admin' AND m.code = 'customers');
