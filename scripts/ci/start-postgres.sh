#!/usr/bin/env bash
# Starts the machine's PostgreSQL (Debian's packages) and makes a role for the store tests.
# Prints the admin URL the tests use as BERTH_TEST_DATABASE_URL.
set -euo pipefail
# Only the URL goes to stdout (the caller captures it); everything the tools print goes to stderr.
exec 3>&1 1>&2
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
cluster=main
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$version $cluster"; then
  pg_createcluster "$version" "$cluster" >/dev/null
fi
# The server outlives this script: it must not inherit fd 3 (the caller's $(...) pipe, which would
# then never reach EOF and hang CI) nor stdin/stdout; its own log is /var/log/postgresql.
pg_ctlcluster "$version" "$cluster" start </dev/null >&2 3>&- || true
for _ in $(seq 1 50); do
  pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 0.2
done
pg_isready -q -h 127.0.0.1 -p 5432 || { echo "PostgreSQL $version did not start" >&2; exit 1; }
runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 <<'SQL' >/dev/null
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'berth') THEN
    CREATE ROLE berth LOGIN CREATEDB PASSWORD 'berth';
  END IF;
END $$;
-- Test databases are dropped WITH (FORCE), which must end an autovacuum worker's connection too.
GRANT pg_signal_backend TO berth;
SQL
runuser -u postgres -- psql -q -tc "SELECT 1 FROM pg_database WHERE datname = 'berth'" | grep -q 1 \
  || runuser -u postgres -- createdb -O berth berth
echo "postgresql://berth:berth@127.0.0.1:5432/berth" >&3
