#!/bin/sh
# The image's entrypoint: refuse to start while deploy/.env still holds a placeholder from
# .env.example (any value containing CHANGE-ME), naming the variables, then run the command
# (gunicorn by default; compose runs migrate, the Celery worker and beat the same way).
set -eu

placeholders=$(env | grep -E '^[A-Za-z_][A-Za-z0-9_]*=.*CHANGE-ME' | cut -d= -f1 | sort | tr '\n' ' ' || true)
if [ -n "$placeholders" ]; then
    echo "arbiter: refusing to start: these settings still hold the CHANGE-ME placeholder" \
        "from .env.example: ${placeholders% }. Set real values in deploy/.env" \
        "(see deploy/README.md, 'First deploy')." >&2
    exit 78  # EX_CONFIG
fi

exec "$@"
