-- Processes keep signed-in sessions in memory; any change to a session, a user or an organization
-- tells every process to forget what it holds, whoever made the change.
CREATE FUNCTION notify_auth_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('auth_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--;
CREATE TRIGGER sessions_auth_changed AFTER UPDATE OR DELETE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
--;
CREATE TRIGGER users_auth_changed AFTER UPDATE OR DELETE ON users FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
--;
CREATE TRIGGER organizations_auth_changed AFTER UPDATE OR DELETE ON organizations FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
--;
CREATE TRIGGER roles_auth_changed AFTER UPDATE OR DELETE ON roles FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
