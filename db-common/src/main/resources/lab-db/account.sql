-- The database set's table: 100,000 accounts, read one by primary key per request (GET /account/{id}).
-- Loaded by the lab into the PostgreSQL it starts for the app-db-* services, and by their tests.
-- Every value follows from the id, so every service answers the same body for the same id.
CREATE TABLE account (
  id bigint PRIMARY KEY,
  owner text NOT NULL,
  balance_cents bigint NOT NULL
);
INSERT INTO account (id, owner, balance_cents)
  SELECT i, 'owner-' || i, (i * 7919) % 1000003 FROM generate_series(1, 100000) AS i;
ANALYZE account;
