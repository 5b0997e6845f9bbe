#!/usr/bin/env bash
# What can be checked of the deployment files without a Docker engine (see the README, "Docker"):
#   1. docker-compose.yml against the Compose schema, with its variables resolved (docker-compose config,
#      Debian's `docker-compose` package, which needs no engine for this);
#   2. deploy/Caddyfile (caddy validate, Debian's `caddy` package);
#   3. the runtime image's commands run here from the image's layout (deploy/run-image-commands.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
if command -v docker-compose >/dev/null; then
  echo "== docker-compose config"
  POSTGRES_PASSWORD=check SESSION_SECRET=check-session-secret-of-enough-length docker-compose config -q && echo ok || status=1
else
  echo "== docker-compose not installed (apt-get install docker-compose): compose file not checked"
fi
if command -v caddy >/dev/null; then
  echo "== caddy validate deploy/Caddyfile"
  caddy validate --config deploy/Caddyfile --adapter caddyfile 2>/dev/null && echo ok || status=1
else
  echo "== caddy not installed (apt-get install caddy): Caddyfile not checked"
fi
echo "== deploy/run-image-commands.sh"
deploy/run-image-commands.sh || status=1
exit $status
