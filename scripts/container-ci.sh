#!/usr/bin/env bash
# Builds trackgraph's container image (Containerfile) and exercises it and both compose files
# with podman, on a machine that reaches no container registry (docs/CONTAINERS.md, "CI").
#
# The public images the files name (node:20-bookworm-slim, postgres:16, redis:7, nginx:1.28) are
# replaced by local stand-ins under the same names, built once from a debootstrapped Debian
# bookworm and this machine's Node 20 (scripts/container/*.Containerfile), and kept in podman's
# store between runs. The project's Containerfile and compose files are used unchanged.
#
# A failure prints `container-ci: <step>: FAILED` and exits non-zero. Everything this run makes
# (containers, networks, volumes, temporary folders) is removed at the end; the images stay.
# Environment: CONTAINER_CI_STATE (default /var/tmp/trackgraph-container-ci), CONTAINER_CI_KEEP=1
# keeps what the run made, for a look after a failure.
set -Eeuo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
FIXTURES="$ROOT/scripts/container"
STATE="${CONTAINER_CI_STATE:-/var/tmp/trackgraph-container-ci}"
RUN="tgci$$"
IMAGE="localhost/trackgraph:ci"
NODE_IMAGE="docker.io/library/node:20-bookworm-slim"
BASE_IMAGE="localhost/trackgraph-ci/bookworm:base"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/trackgraph-container-ci.XXXXXX")"
STEP=setup
T0=$SECONDS

log() { printf 'container-ci: %s\n' "$*"; }
step() { STEP="$1"; log "$1 ($((SECONDS - T0)) s)"; }
fail() { log "$STEP: $*"; return 1; }
on_error() {
  local code=$?
  trap - ERR
  log "$STEP: FAILED (exit $code, line ${BASH_LINENO[0]})"
  # Each of the run's trackgraph containers says what it last did, so that a failure says why.
  local c
  for c in $(command podman ps -a --format '{{.Names}}' 2>/dev/null | grep "^${RUN:-none}" | grep -Ev '_(postgres|redis|proxy)_' || true); do
    log "$c, last lines:"
    command podman logs --tail 25 "$c" 2>&1 | cut -c1-400 || true
  done
  exit "$code"
}
trap on_error ERR

# ---- tools ------------------------------------------------------------------------------------
step tools
need=()
command -v podman >/dev/null || need+=(podman)
command -v runc >/dev/null || need+=(runc)
command -v podman-compose >/dev/null || need+=(podman-compose)
command -v debootstrap >/dev/null || need+=(debootstrap)
[ -x /usr/lib/podman/netavark ] || [ -x /usr/libexec/podman/netavark ] || need+=(netavark aardvark-dns)
command -v curl >/dev/null || need+=(curl)
# netavark (podman's network backend) drives iptables; without it every container with a network fails to start.
command -v iptables >/dev/null || need+=(iptables)
if [ "${#need[@]}" -gt 0 ]; then
  log "installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# podman's settings for this CI only: runc (crun fails on this kernel's hybrid cgroups), cgroupfs
# (no systemd), ulimits this machine allows. Nothing in /etc is changed.
mkdir -p "$STATE"
cat > "$STATE/containers.conf" <<'EOF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
export CONTAINERS_CONF="$STATE/containers.conf"
podman info >/dev/null || fail "podman does not run"

# No systemd here: podman cannot schedule the periodic health checks (CI runs them by hand) and
# says so on every start and stop; those lines are dropped.
podman() { command podman "$@" 2> >(trap - ERR; grep -v 'systemd connection' >&2 || true); }
compose() { podman-compose --no-ansi -p "$RUN" "$@"; }
cleanup() {
  local code=$?
  trap - ERR
  log "cleanup"
  if [ "${CONTAINER_CI_KEEP:-}" = 1 ]; then
    log "kept: project $RUN, containers $RUN-*, $WORK"
    exit "$code"
  fi
  if [ -f "$WORK/single-env" ]; then
    (set -a; . "$WORK/single-env"; podman-compose --no-ansi -p "$RUN-single" -f compose.yaml down -v -t 0 >/dev/null 2>&1) || true
  fi
  if [ -f "$WORK/compose-env" ]; then
    (set -a; . "$WORK/compose-env"; compose -f compose.scale.yaml down -v -t 0 >/dev/null 2>&1) || true
  fi
  podman ps -a --format '{{.Names}}' | grep "^${RUN}" | xargs -r podman rm -f -t 0 >/dev/null 2>&1 || true
  podman volume ls --format '{{.Name}}' | grep "^${RUN}" | xargs -r podman volume rm -f >/dev/null 2>&1 || true
  podman network ls --format '{{.Name}}' | grep "^${RUN}" | xargs -r podman network rm -f >/dev/null 2>&1 || true
  rm -rf "$WORK"
  log "cleanup done ($((SECONDS - T0)) s)"
  exit "$code"
}
trap cleanup EXIT

# ---- stand-in base images (cached in podman's store) ------------------------------------------
# An image is rebuilt when its fixture files (or this machine's Node) change: their hash is its label.
fixture_hash() { cat "$@" | sha256sum | cut -c1-16; }
image_label() { podman image inspect --format '{{index .Config.Labels "trackgraph.ci.fixture"}}' "$1" 2>/dev/null || true; }
standin() { # name, Containerfile, context dir, hash
  if [ "$(image_label "$1")" = "$4" ]; then log "  $1: cached"; return; fi
  log "  $1: building"
  podman build --pull=never --label "trackgraph.ci.fixture=$4" -f "$2" -t "$1" "$3" > "$WORK/standin.log" 2>&1 \
    || { tail -20 "$WORK/standin.log"; fail "building the stand-in $1 failed"; }
}

step base-images
if ! podman image exists "$BASE_IMAGE"; then
  log "  $BASE_IMAGE: debootstrap --variant=minbase bookworm"
  rootfs="$STATE/rootfs"
  rm -rf "$rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian > "$STATE/debootstrap.log" 2>&1 \
    || { tail -20 "$STATE/debootstrap.log"; fail "debootstrap failed"; }
  # As slim as debian:bookworm-slim: no documentation, manuals or locales, no package lists.
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
         "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
         "$rootfs"/usr/share/locale/* "$rootfs"/var/log/*.log
  mkdir -p "$rootfs/etc/dpkg/dpkg.cfg.d"
  printf 'path-exclude /usr/share/doc/*\npath-exclude /usr/share/man/*\npath-exclude /usr/share/info/*\npath-exclude /usr/share/locale/*\n' \
    > "$rootfs/etc/dpkg/dpkg.cfg.d/docker-slim"
  printf 'APT::Install-Recommends "false";\n' > "$rootfs/etc/apt/apt.conf.d/99no-recommends"
  tar -C "$rootfs" -c . | podman import -q --change 'CMD ["bash"]' - "$BASE_IMAGE" >/dev/null
  rm -rf "$rootfs"
fi
node_bin="$(readlink -f "$(command -v node)")"
node_prefix="$(dirname "$(dirname "$node_bin")")"
npm_dir="$node_prefix/lib/node_modules/npm"
[ -d "$npm_dir" ] || npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
node_hash="$( (fixture_hash "$FIXTURES/node.Containerfile"; "$node_bin" --version; "$npm_dir/bin/npm-cli.js" --version 2>/dev/null || true) | sha256sum | cut -c1-16)"
if [ "$(image_label "$NODE_IMAGE")" != "$node_hash" ]; then
  ctx="$WORK/node-context"
  mkdir -p "$ctx"
  cp "$node_bin" "$ctx/node"
  cp -a "$npm_dir" "$ctx/npm"
  cp -a "$node_prefix/include/node" "$ctx/include"
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
fi
standin "$NODE_IMAGE" "$FIXTURES/node.Containerfile" "$WORK/node-context" "$node_hash"
standin docker.io/library/postgres:16 "$FIXTURES/postgres.Containerfile" "$FIXTURES" \
  "$(fixture_hash "$FIXTURES/postgres.Containerfile" "$FIXTURES/postgres-entrypoint.sh")"
standin docker.io/library/redis:7 "$FIXTURES/redis.Containerfile" "$FIXTURES" \
  "$(fixture_hash "$FIXTURES/redis.Containerfile" "$FIXTURES/redis-entrypoint.sh")"
standin docker.io/library/nginx:1.28 "$FIXTURES/nginx.Containerfile" "$FIXTURES" \
  "$(fixture_hash "$FIXTURES/nginx.Containerfile")"

# ---- the image ---------------------------------------------------------------------------------
step image-build
t=$SECONDS
# --format docker keeps the HEALTHCHECK (OCI images have none). The npm settings of this machine
# (registry, proxy) reach npm in the build as build arguments npm reads from the environment.
build_args=()
for v in npm_config_registry NPM_CONFIG_REGISTRY HTTPS_PROXY HTTP_PROXY NO_PROXY https_proxy http_proxy no_proxy; do
  [ -n "${!v:-}" ] && build_args+=(--build-arg "$v=${!v}")
done
podman build --pull=never --format docker ${build_args[@]+"${build_args[@]}"} -f Containerfile -t "$IMAGE" . > "$WORK/build.log" 2>&1 \
  || { tail -40 "$WORK/build.log"; fail "podman build failed"; }
build_s=$((SECONDS - t))
# Earlier builds' leftovers (untagged images: the image before this one, build stages of older
# sources) go after three days; the layers this build used stay, so the next build is warm.
podman image prune -f --filter until=72h >/dev/null 2>&1 || true
size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
base_size=$(podman image inspect --format '{{.Size}}' "$NODE_IMAGE")
log "  built in ${build_s} s; image $((size / 1000000)) MB, of which the Node base $((base_size / 1000000)) MB and trackgraph's layers $(((size - base_size) / 1000000)) MB"
podman run --rm --entrypoint sh "$IMAGE" -c 'for t in g++ gcc make python3 cc; do command -v $t && exit 1; done; [ ! -e /app/src ]' >/dev/null \
  || fail "the runtime image carries the toolchain or the sources"

# ---- helpers -----------------------------------------------------------------------------------
# GET $1 with the key in $KEY; prints the body; the status goes to $WORK/status.
get() {
  curl -sS -o "$WORK/body" -w '%{http_code}' --max-time 60 -H "Authorization: Bearer ${KEY:-}" "$1" > "$WORK/status" || echo 000 > "$WORK/status"
  cat "$WORK/body" 2>/dev/null || true
}
status() { cat "$WORK/status"; }
wait_ready() { # url, seconds
  local deadline=$((SECONDS + $2))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$1/readyz" || true)" = 200 ]; do
    [ $SECONDS -lt $deadline ] || fail "$1/readyz did not answer 200 within $2 s"
    sleep 1
  done
}
# Each API node's own /readyz, from inside its container: the proxy answers as soon as one node
# does, and podman-compose 1.0 starts the proxy without waiting for the nodes' health.
wait_nodes_ready() { # seconds: every check of each API node "ok" (a degraded node answers 200 too)
  local deadline=$((SECONDS + $1)) c
  for c in api1 api2; do
    until podman exec "${RUN}_${c}_1" node -e 'fetch("http://127.0.0.1:4000/readyz").then((r) => r.json()).then((b) => process.exit(b.status === "ready" ? 0 : 1), () => process.exit(1))' 2>/dev/null; do
      [ $SECONDS -lt $deadline ] || {
        podman exec "${RUN}_${c}_1" node -e 'fetch("http://127.0.0.1:4000/readyz").then((r) => r.text()).then(console.log, console.log)' 2>&1 || true
        podman logs --tail 20 "${RUN}_${c}_1" 2>&1
        fail "$c's /readyz did not report every check ok within $1 s"
      }
      sleep 1
    done
  done
}
# The environment file both compose files read (the image, the published port, the music folder).
compose_env() { printf 'TRACKGRAPH_IMAGE=%s\nTRACKGRAPH_PORT=%s\nMUSIC_DIR=%s\nSOURCES=library\n' "$IMAGE" "$1" "$WORK/music"; }
random_hex() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s);console.log(eval(process.argv[1])??"")})' "$1"; }
# The first admin key from the notice the server wrote in its data folder.
key_from() { sed -n 's/^ *\(tg_[A-Za-z0-9_-]*\) *$/\1/p' | head -1; }
analysis() { # base url, trackKey: polls through 202s for up to 120 s, prints the analysis
  local deadline=$((SECONDS + 120)) body
  while :; do
    body="$(get "$1/api/audio/analysis/$2")"
    [ "$(status)" = 200 ] && { printf '%s' "$body"; return 0; }
    [ "$(status)" = 202 ] && [ $SECONDS -lt $deadline ] || { printf '%s\n' "$body" >&2; fail "analysis of $2 answered $(status)"; }
    sleep 2
  done
}
stop_within() { # container, grace seconds: SIGTERM, then the exit must be clean and in time
  local t=$SECONDS code
  podman stop -t "$2" "$1" >/dev/null
  code=$(podman inspect --format '{{.State.ExitCode}}' "$1")
  log "  $1: stopped in $((SECONDS - t)) s, exit $code"
  [ "$code" = 0 ] && [ $((SECONDS - t)) -lt "$2" ] || fail "$1 did not end cleanly within $2 s of SIGTERM (exit $code)"
}

# A music folder with one short WAV, tagged by its name (artist - title).
mkdir -p "$WORK/music"
node -e '
  const rate = 22050, seconds = 8, n = rate * seconds, data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) {
    const t = i / rate, beat = (t * 2) % 1;                       // 120 BPM clicks over an A minor chord
    const v = 0.25 * (Math.sin(2 * Math.PI * 220 * t) + Math.sin(2 * Math.PI * 261.63 * t) + Math.sin(2 * Math.PI * 329.63 * t)) / 3
            + (beat < 0.02 ? 0.6 * Math.sin(2 * Math.PI * 1000 * t) : 0);
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, v)) * 32767), i * 2);
  }
  const h = Buffer.alloc(44);
  h.write("RIFF", 0); h.writeUInt32LE(36 + data.length, 4); h.write("WAVE", 8); h.write("fmt ", 12);
  h.writeUInt32LE(16, 16); h.writeUInt16LE(1, 20); h.writeUInt16LE(1, 22); h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28); h.writeUInt16LE(2, 32); h.writeUInt16LE(16, 34); h.write("data", 36); h.writeUInt32LE(data.length, 40);
  require("fs").writeFileSync(process.argv[1], Buffer.concat([h, data]));' "$WORK/music/Container CI - Click Tone.wav"
chmod -R a+rX "$WORK/music"
ARTIST="Container CI" TRACK="Click Tone"
# trackKey: the first 16 hex of sha256(lower(artist) ":" lower(track)) (docs/API.md).
EXPECTED_KEY="$(printf '%s' "$ARTIST:$TRACK" | tr '[:upper:]' '[:lower:]' | sha256sum | cut -c1-16)"
search_key() { # base url: the trackKey the search finds for the WAV
  local body
  body="$(get "$1/api/audio/search?track=Click+Tone&artist=Container+CI")"
  [ "$(status)" = 200 ] || { printf '%s\n' "$body" >&2; fail "search answered $(status)"; }
  printf '%s' "$body" | json 'v.data.find((t) => t.trackName === "Click Tone")?.trackKey'
}

# ---- one service, embedded: compose.yaml ------------------------------------------------------
step single-start
PORT1="$(free_port)"
compose_env "$PORT1" > "$WORK/single-env"
single() { (set -a; . "$WORK/single-env"; podman-compose --no-ansi -p "$RUN-single" -f compose.yaml "$@"); }
single up -d > "$WORK/single-up.log" 2>&1 || { tail -30 "$WORK/single-up.log"; fail "compose up"; }
CTR="$RUN-single_trackgraph_1"
URL="http://127.0.0.1:$PORT1"
wait_ready "$URL" 120 || { podman logs "$CTR" 2>&1 | tail -30; false; }

step single-first-key
KEY="$(single exec -T trackgraph cat /data/first-admin-key.txt 2>/dev/null | key_from || true)"
[ -n "$KEY" ] || fail "no key in /data/first-admin-key.txt (compose exec trackgraph cat /data/first-admin-key.txt)"
# The log read whole first: `podman logs | grep -q` under pipefail fails whenever grep stops
# reading (its match found) before podman has written everything (SIGPIPE).
LOG="$(podman logs "$CTR" 2>&1)"
grep -q 'first-admin-key.txt' <<<"$LOG" || { printf '%s\n' "$LOG" | tail -20; fail "the log does not say where the first key is"; }

step single-non-root
uids="$(podman exec "$CTR" sh -c 'id -u; awk "/^Uid:/ {print \$2}" /proc/1/status')"
[ "$uids" = "$(printf '1000\n1000')" ] || fail "processes run as uid $(echo $uids)"

step single-healthcheck
podman healthcheck run "$CTR" >/dev/null 2>&1 || fail "the image's HEALTHCHECK fails"

step single-search
deadline=$((SECONDS + 60))
until TK="$(search_key "$URL")" && [ -n "$TK" ]; do
  [ $SECONDS -lt $deadline ] || fail "search did not find the library's WAV"
  sleep 2
done
[ "$TK" = "$EXPECTED_KEY" ] || fail "trackKey $TK, expected $EXPECTED_KEY"

step single-analysis
A="$(analysis "$URL" "$TK")"
tempo="$(printf '%s' "$A" | json 'v.data.tempo')"
log "  analysed: tempo $tempo, key $(printf '%s' "$A" | json 'v.data.keyString')"
[ -n "$tempo" ] || fail "no tempo in the analysis"

step single-cli
# The CLI commands as docs/CONTAINERS.md gives them: compose run --rm trackgraph <command>
# (--no-deps: podman-compose 1.0 otherwise re-runs `up` first, ~14 s each, to the same effect).
cli() { single run --rm --no-deps trackgraph "$@" > "$WORK/cli.out" 2>&1 || { cat "$WORK/cli.out"; fail "$*"; }; }
cli apikey create --name ci --scope read
grep -q 'tg_' "$WORK/cli.out" || { cat "$WORK/cli.out"; fail "apikey create printed no key"; }
cli apikey list
grep -q ' ci ' "$WORK/cli.out" || { cat "$WORK/cli.out"; fail "apikey list does not list the key"; }
cli analyse "/music/$ARTIST - $TRACK.wav"
cli index /music

step single-sigterm
stop_within "$CTR" 30
single down -v -t 0 > /dev/null 2>&1

# ---- scaled out --------------------------------------------------------------------------------
step scale-up
PORT2="$(free_port)"
{
  compose_env "$PORT2"
  printf 'POSTGRES_PASSWORD=ci-%s\nARTWORK_SECRET=%s\nWEBHOOK_SECRET_KEY=%s\n' "$(random_hex 12)" "$(random_hex 32)" "$(random_hex 32)"
} > "$WORK/compose-env"
scale() { (set -a; . "$WORK/compose-env"; compose -f compose.scale.yaml "$@"); }
scale up -d > "$WORK/scale-up.log" 2>&1 || { tail -30 "$WORK/scale-up.log"; fail "compose up"; }
URL="http://127.0.0.1:$PORT2"
wait_ready "$URL" 180 || { podman ps -a --filter "name=$RUN" --format '{{.Names}} {{.Status}}'; for c in api1 api2 worker proxy; do podman logs --tail 15 "${RUN}_${c}_1" 2>&1; done; false; }
wait_nodes_ready 120

step scale-first-key
KEY="$(scale exec -T api1 cat /data/first-admin-key.txt 2>/dev/null | key_from || true)"
[ -n "$KEY" ] || KEY="$(podman exec "${RUN}_api1_1" cat /data/first-admin-key.txt | key_from)"
[ -n "$KEY" ] || fail "no key in the API nodes' data volume"

step scale-non-root
for c in api1 api2 worker; do
  [ "$(podman exec "${RUN}_${c}_1" id -u)" = 1000 ] || fail "$c runs as root"
done

step scale-worker-analysis
deadline=$((SECONDS + 90))
until TK="$(search_key "$URL")" && [ -n "$TK" ]; do
  [ $SECONDS -lt $deadline ] || fail "search through the proxy did not find the library's WAV"
  sleep 2
done
A1="$(analysis "$URL" "$TK")"
stored_by_worker() { podman exec "${RUN}_worker_1" node -e '
  fetch("http://127.0.0.1:9100/metrics").then((r) => r.text()).then((t) => {
    const m = /trackgraph_analysis_duration_seconds_count\{[^}]*outcome="stored"[^}]*\} (\d+)/.exec(t);
    console.log(m ? m[1] : 0);
  });'; }
[ "$(stored_by_worker)" -ge 1 ] || fail "the worker's metrics show no stored analysis"
for c in api1 api2; do
  # A node that does not answer its own /metrics is a failure of its own: its state and its log
  # are printed, so that the run says why.
  n="$(podman exec "${RUN}_${c}_1" node -e 'fetch("http://127.0.0.1:4000/metrics").then((r) => r.text()).then((t) => console.log((t.match(/^trackgraph_analysis_duration_seconds_count\{.*\} [1-9]/m) || []).length))' 2>&1)" || {
    printf '%s\n' "$n" | tail -5
    podman ps -a --filter "name=$RUN" --format '{{.Names}} {{.Status}}'
    podman logs --tail 30 "${RUN}_${c}_1" 2>&1
    fail "$c did not answer its /metrics"
  }
  [ "$n" = 0 ] || fail "$c analysed in process: the queue was not used"
done

step scale-worker-sigterm
stop_within "${RUN}_worker_1" 40

step scale-down-up
scale down -t 40 > "$WORK/scale-down.log" 2>&1 || { tail -20 "$WORK/scale-down.log"; fail "compose down"; }
scale up -d > "$WORK/scale-up.log" 2>&1 || { tail -30 "$WORK/scale-up.log"; fail "compose up again"; }
wait_ready "$URL" 180
wait_nodes_ready 120

step scale-persisted
A2="$(get "$URL/api/audio/analysis/$TK")"
[ "$(status)" = 200 ] || fail "after down and up: analysis answered $(status), the key or the row was lost"
[ "$(printf '%s' "$A1" | json 'v.data.tempo')" = "$(printf '%s' "$A2" | json 'v.data.tempo')" ] || fail "the analysis changed across down and up"
[ "$(stored_by_worker)" = 0 ] || fail "the analysis was made again after down and up"

step done
log "image $IMAGE: $((size / 1000000)) MB, built in ${build_s} s; all steps passed in $((SECONDS - T0)) s"
