#!/bin/sh
# The official image's behaviour: options only -> redis-server; run as redis; no protected mode
# unless asked (the official build turns it off for a container's network).
set -e
case "$1" in -*) set -- redis-server "$@" ;; esac
if [ "$1" = redis-server ]; then
  shift
  case " $* " in *" --protected-mode "*) ;; *) set -- --protected-mode no "$@" ;; esac
  set -- redis-server --bind '* -::*' --dir /data "$@"
  if [ "$(id -u)" = 0 ]; then
    chown -R redis:redis /data
    exec setpriv --reuid redis --regid redis --init-groups "$@"
  fi
fi
exec "$@"
