# Shared by scripts/dev, scripts/test and .ci/run. Source it; do not run it.
# Everything here is idempotent: a second run only checks.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"

log() { printf '\033[1m==> %s\033[0m\n' "$*"; }

find_python() {
  for candidate in python3.11 python3.12 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(not ((3, 11) <= sys.version_info[:2] < (3, 13)))'; then
      command -v "$candidate"
      return 0
    fi
  done
  echo "Arbiter needs Python 3.11 or 3.12 (apt-get install python3.11 python3.11-venv)." >&2
  return 1
}

# The virtual environment with Arbiter and its test tools; reinstalls only when
# pyproject.toml changed since the last install.
ensure_venv() {
  local python stamp want
  python="$(find_python)"
  if ! command -v uv >/dev/null 2>&1; then
    log "installing uv (fast Python package installer)"
    "$python" -m pip install --quiet uv || true
  fi
  if [ ! -x "$PY" ]; then
    log "creating the virtual environment in .venv"
    if command -v uv >/dev/null 2>&1; then uv venv --quiet --python "$python" "$VENV"; else "$python" -m venv "$VENV"; fi
  fi
  stamp="$VENV/.arbiter-installed"
  want="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    log "installing Arbiter and its dependencies"
    if command -v uv >/dev/null 2>&1; then
      uv pip install --quiet --python "$PY" -e "$ROOT[dev]"
    else
      "$PY" -m pip install --quiet -e "$ROOT[dev]"
    fi
    echo "$want" >"$stamp"
  fi
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else return 1; fi
}

APT_UPDATED=""
# Install Debian packages that are missing (needs root or sudo).
ensure_apt() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  if [ -z "$APT_UPDATED" ]; then as_root apt-get update -qq && APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
}

# WeasyPrint's libraries and the fonts for every name, from deploy/print-packages.txt (the
# Dockerfile installs the same list), plus poppler-utils, which turns PDFs into PNGs and text
# for the tests, and gettext (msgfmt, msgmerge), which compiles and checks the translation
# catalogues (locale/).
print_packages() { grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$ROOT/deploy/print-packages.txt"; }
ensure_print_deps() {
  local packages
  mapfile -t packages < <(print_packages)
  packages+=(poppler-utils gettext)
  ensure_apt "${packages[@]}" ||
    echo "WARNING: could not install ${packages[*]} (needs root or sudo): printing will be slow or fail, names may print as empty boxes."
}

# The address scripts/dev serves on: ARBITER_ADDR as runserver reads it (a port,
# host:port or [IPv6]:port), 127.0.0.1:8000 when it is unset or empty.
dev_addr() {
  local addr="${ARBITER_ADDR:-127.0.0.1:8000}"
  case "$addr" in
    *[!0-9]*) printf '%s\n' "$addr" ;;
    *) printf '127.0.0.1:%s\n' "$addr" ;; # a port alone: runserver's own host
  esac
}

# Where a browser on this machine opens the address $1 (all interfaces: the loopback).
dev_url() {
  local host="${1%:*}" port="${1##*:}"
  case "$host" in
    0.0.0.0) host=127.0.0.1 ;;
    "[::]") host="[::1]" ;;
  esac
  printf 'http://%s:%s/\n' "$host" "$port"
}

# scripts/dev's last step: serve on dev_addr, logging the address it really serves on.
serve_dev() {
  local addr
  addr="$(dev_addr)"
  log "serving Arbiter at $(dev_url "$addr") (Ctrl-C stops it)"
  exec "$PY" manage.py runserver "$addr"
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# PostgreSQL and Redis on 127.0.0.1 for the production-shaped test pass.
# Starts them if installed but stopped; installs them only when asked to
# (ARBITER_INSTALL_SERVICES=1, as .ci/run does).
ensure_services() {
  if ! port_open 5432 || ! port_open 6379; then
    if [ "${ARBITER_INSTALL_SERVICES:-0}" = 1 ]; then ensure_apt postgresql redis-server; fi
  fi
  if ! port_open 5432 && command -v pg_ctlcluster >/dev/null 2>&1; then
    log "starting PostgreSQL"
    local version
    version="$(ls /etc/postgresql 2>/dev/null | sort -V | tail -1)"
    [ -n "$version" ] && as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    if [ -n "$version" ] && [ "${ARBITER_INSTALL_SERVICES:-0}" = 1 ]; then
      # A fresh Debian cluster asks for passwords on TCP; the test pass uses trust on loopback.
      local hba="/etc/postgresql/$version/main/pg_hba.conf"
      if ! grep -q '^host all all 127.0.0.1/32 trust' "$hba" 2>/dev/null; then
        as_root sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
        as_root pg_ctlcluster --skip-systemctl-redirect "$version" main reload || true
      fi
    fi
  fi
  if ! port_open 6379 && command -v redis-server >/dev/null 2>&1; then
    log "starting Redis"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null || true
  fi
  for _ in $(seq 1 20); do port_open 5432 && port_open 6379 && break; sleep 0.5; done
  if port_open 5432 && command -v psql >/dev/null 2>&1; then
    psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='arbiter'" 2>/dev/null | grep -q 1 ||
      psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE arbiter" >/dev/null 2>&1 || true
  fi
  port_open 5432 && port_open 6379
}

SERVICES_HELP="PostgreSQL (127.0.0.1:5432, user postgres, trust auth on loopback) and Redis (127.0.0.1:6379) are needed for the production-shaped pass.
On Debian/Ubuntu: sudo apt-get install -y postgresql redis-server
  then: sudo pg_ctlcluster --skip-systemctl-redirect \$(ls /etc/postgresql) main start
        redis-server --daemonize yes --bind 127.0.0.1 --port 6379
  and allow trust on loopback: add 'host all all 127.0.0.1/32 trust' at the top of pg_hba.conf.
Or point ARBITER_TEST_DATABASE_URL / ARBITER_TEST_REDIS_URL at servers you already have."
