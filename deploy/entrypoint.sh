#!/bin/sh
# trackgraph's container entry point: the first argument picks the role, the rest go to it.
#   api (default)            the HTTP API and dashboard (npm start)
#   worker                   an analysis worker on QUEUE_URL (npm run worker)
#   index [args]             analyse a folder ahead of time (npm run index -- [args])
#   analyse <file> [args]    analyse one file (npm run analyse -- <file> [args])
#   apikey <command> [args]  create, list or revoke API keys (npm run apikey -- <command>)
# Anything else is run as given (e.g. `sh`, `node -v`).
set -e
cd /app
role="${1:-api}"
[ "$#" -gt 0 ] && shift
case "$role" in
  api|start|serve) exec node dist/src/main.js "$@" ;;
  worker)          exec node --single-threaded-gc dist/src/worker.js "$@" ;;
  index)           exec node --single-threaded-gc dist/src/cli/index-library.js "$@" ;;
  analyse|analyze) exec node --single-threaded-gc dist/src/cli/analyse.js "$@" ;;
  apikey)          exec node dist/src/cli/apikey.js "$@" ;;
  healthcheck)
    # /readyz of this container: the worker's WORKER_PORT when set, else the API's PORT.
    exec node -e '
      const port = process.env.WORKER_PORT || process.env.PORT || 4000;
      fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(4000) })
        .then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1));' ;;
  *)               exec "$role" "$@" ;;
esac
