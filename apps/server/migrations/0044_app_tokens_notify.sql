-- Processes keep what an app's access token stands for in memory, like signed-in sessions: a revoked grant or token
-- (their rows deleted) and a suspended or changed app tell every process to forget what it holds. Only those kinds:
-- interactions and codes come and go with every sign-in.
CREATE TRIGGER oauth_models_auth_changed AFTER DELETE ON oauth_models
  FOR EACH ROW WHEN (OLD.kind IN ('AccessToken', 'Grant')) EXECUTE FUNCTION notify_auth_changed();
--;
CREATE TRIGGER oauth_apps_auth_changed AFTER UPDATE OR DELETE ON oauth_apps
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
