#!/usr/bin/env bash
# The Debian packages the tests need: Chromium for Playwright (never `playwright install`: it
# downloads), and PostgreSQL for the production store's suites. Installs what is missing when it
# may (as root, or with password-less sudo); otherwise says what to install and fails.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  run=()
elif sudo -n true 2>/dev/null; then
  run=(sudo -n)
else
  echo "The tests need these Debian packages: ${missing[*]}. Install them (sudo apt-get install ${missing[*]}) and run npm test again." >&2
  exit 1
fi
echo "Installing Debian packages: ${missing[*]}" >&2
"${run[@]}" apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive "${run[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
