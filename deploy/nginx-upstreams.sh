#!/bin/sh
# The shipped nginx site (nginx/pwc-mcp.conf, on standard input) with its upstream pointed at
# the replicas named as arguments, on standard output:
#
#   sh deploy/nginx-upstreams.sh replica-1:7860 replica-2:7860 replica-3:7860 \
#     < nginx/pwc-mcp.conf > /etc/nginx/conf.d/default.conf
#
# Only the single `server 127.0.0.1:7860;` line of the upstream changes (into one line per
# replica), so the shipped file stays the single-replica site the release workflow deploys.
# Where the system has no IPv6 (many containers), the `listen [::]:...` lines are dropped too.
# deploy/compose.yaml runs this in its nginx container; tests/ops/test_replicas.py on loopback.
set -eu

if [ "$#" -eq 0 ]; then
  echo "usage: nginx-upstreams.sh HOST:PORT... < site > site" >&2
  exit 2
fi
for replica in "$@"; do
  case "$replica" in
    *:*[!0-9]* | *[!A-Za-z0-9.:_-]* | :* | *:) echo "nginx-upstreams.sh: not HOST:PORT: $replica" >&2; exit 2 ;;
    *:*) ;;
    *) echo "nginx-upstreams.sh: not HOST:PORT: $replica" >&2; exit 2 ;;
  esac
done

ipv6=1
[ -e /proc/net/if_inet6 ] || ipv6=0

awk -v servers="$*" -v ipv6="$ipv6" '
  /^[ \t]*listen[ \t]+\[::\]/ && ipv6 == 0 { next }
  /^[ \t]*server[ \t]+127\.0\.0\.1:7860;/ {
    found++
    indent = $0
    sub(/[^ \t].*$/, "", indent)
    n = split(servers, list, " ")
    for (i = 1; i <= n; i++) print indent "server " list[i] ";"
    next
  }
  { print }
  END {
    if (found != 1) {
      print "nginx-upstreams.sh: expected one upstream line `server 127.0.0.1:7860;`" > "/dev/stderr"
      exit 1
    }
  }
'
