#!/usr/bin/env bash
# Runs the runtime image's commands here, without a Docker engine: lays out a folder with exactly
# what the Dockerfile's runtime stage copies (COPY lines read from the Dockerfile; the build
# stage's console/dist and portal/dist and the deps stage's node_modules taken from this checkout,
# so `npm run build` first), then, as an unprivileged user (nobody) with the image's environment,
# runs `ops migrate`, the CMD (the API), the projector and the health probes against a fresh
# database on TEST_POSTGRES_URL's server and REDIS_URL (database 13), and stops them.
#   TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres deploy/run-image-commands.sh
# What this does not show: that `npm ci --omit=dev` gives a complete node_modules (this uses the
# checkout's, dev dependencies included), the base image, and the build itself.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
node=${NODE:-$(command -v node)}
"$node" -e 'if (Number(process.versions.node.split(".")[0]) < 24) { console.error("Node 24 is needed: NODE=path/to/node24 or run through npx"); process.exit(1) }'
postgres_url=${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}
redis_url=${REDIS_URL:-redis://127.0.0.1:6379}/13
root=$(mktemp -d /tmp/image-root.XXXXXX)
app=$root/app
db=image_check_$(date +%s)_$$
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  "$node" -e 'const pg=require(process.argv[1]);const c=new pg.Client(process.argv[2]);c.connect().then(()=>c.query(`DROP DATABASE IF EXISTS "${process.argv[3]}" WITH (FORCE)`)).finally(()=>c.end())' "$repo/node_modules/pg" "$postgres_url" "$db" || true
  rm -rf "$root"
}
trap cleanup EXIT

mkdir -p "$app"
# The runtime stage's COPY lines, in order.
awk '/^FROM .* AS runtime/{on=1; next} /^FROM /{on=0} on && /^COPY /' "$repo/Dockerfile" | while read -r -a words; do
  args=("${words[@]:1}")
  [[ ${args[0]} == --from=* ]] && args=("${args[@]:1}")
  dest=${args[-1]}
  for src in "${args[@]:0:${#args[@]}-1}"; do
    src=${src#/app/}
    if [[ $src == node_modules ]]; then
      # The dependencies as links into the checkout's; the workspaces as npm links them, into the image's folders.
      mkdir -p "$app/node_modules/@storage"
      for entry in "$repo"/node_modules/* "$repo"/node_modules/.bin; do
        [[ $(basename "$entry") == @storage ]] || ln -s "$entry" "$app/node_modules/$(basename "$entry")"
      done
      for link in "$repo"/node_modules/@storage/*; do ln -s "$(readlink "$link")" "$app/node_modules/@storage/$(basename "$link")"; done
    elif [[ $dest == */ ]]; then
      mkdir -p "$app/$dest"
      cp -r "$repo/$src" "$app/$dest"
    else
      mkdir -p "$(dirname "$app/$dest")"
      cp -r "$repo/$src" "$app/$dest"
    fi
  done
done
chmod -R go+rX "$root"
echo "Image layout in $app:"; (cd "$app" && ls -d */* | tr '\n' ' '); echo

"$node" -e 'const pg=require(process.argv[1]);const c=new pg.Client(process.argv[2]);c.connect().then(()=>c.query(`CREATE DATABASE "${process.argv[3]}"`)).finally(()=>c.end())' "$repo/node_modules/pg" "$postgres_url" "$db"
database_url=$("$node" -e 'const u=new URL(process.argv[1]);u.pathname="/"+process.argv[2];console.log(u.toString())' "$postgres_url" "$db")
free_port() { "$node" -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
api_port=$(free_port); projector_health_port=$(free_port)
as_image() {
  # The image's ENV and the compose file's, as the unprivileged user, in the image's WORKDIR.
  (cd "$app" && setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH=/usr/bin:/bin HOME=/tmp \
    NODE_ENV=production HOST=0.0.0.0 PORT="$api_port" PROJECTOR_HEALTH_PORT="$projector_health_port" \
    DATABASE_URL="$database_url" REDIS_URL="$redis_url" SESSION_SECRET=image-check-session-secret-of-enough-length \
    TRUST_PROXY=127.0.0.1 LOG_LEVEL=info "$node" "$@")
}
echo "== node ops/src/cli.ts migrate"; as_image ops/src/cli.ts migrate
echo "== node api/src/main.ts (CMD), node projector/src/main.ts"
as_image api/src/main.ts >"$root/api.log" 2>&1 & pids+=($!)
as_image projector/src/main.ts >"$root/projector.log" 2>&1 & pids+=($!)
for _ in $(seq 1 300); do
  if as_image ops/src/health-probe.ts api live >/dev/null 2>&1 && grep -q 'Projector running' "$root/projector.log"; then break; fi
  sleep 0.2
done
status=0
echo "== node ops/src/health-probe.ts api live";        as_image ops/src/health-probe.ts api live || status=1
echo "== node ops/src/health-probe.ts api ready";       as_image ops/src/health-probe.ts api ready || status=1
echo "== node ops/src/health-probe.ts projector live";  as_image ops/src/health-probe.ts projector live || status=1
echo "== node ops/src/health-probe.ts projector ready"; as_image ops/src/health-probe.ts projector ready || status=1
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$api_port/" || true); echo "== GET / (the portal, from portal/dist): $code"
[[ $code == 200 ]] || status=1
echo "== API log (head)"; head -c 1500 "$root/api.log"; echo
echo "== projector log (head)"; head -c 1500 "$root/projector.log"; echo
exit $status
