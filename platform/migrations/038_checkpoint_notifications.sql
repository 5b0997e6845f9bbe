-- Read-your-writes listens instead of polling: every change of the projections' checkpoints, or
-- of their failures (a failing projection is not waited for), tells the listeners on commit.
-- One notification per statement, and PostgreSQL folds identical ones of a transaction into one.
CREATE FUNCTION notify_projection_progress() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('projection_progress', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER projection_checkpoints_progress
  AFTER INSERT OR UPDATE OR DELETE ON projection_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION notify_projection_progress();

CREATE TRIGGER projection_failures_progress
  AFTER INSERT OR UPDATE OR DELETE ON projection_failures
  FOR EACH STATEMENT EXECUTE FUNCTION notify_projection_progress();
