#!/usr/bin/env bash
# Stops the PostgreSQL cluster start-postgres.sh started, so a CI run leaves no server behind.
set -euo pipefail
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
pg_ctlcluster "$version" main stop </dev/null 3>&- || true
