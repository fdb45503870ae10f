#!/usr/bin/env bash
# External interoperability checks for pwc-mcp, all on loopback (run by `make interop`).
#
#  1. Installs, outside the tracked files (.cache/interop/, git-ignored), Node 22 from the npm
#     `node` package and the pinned npm packages @modelcontextprotocol/conformance and
#     @modelcontextprotocol/inspector; skipped when the cached versions already match the pins.
#  2. Starts `pwc-mcp --sample-catalog` on 127.0.0.1 with production-like settings (Origin
#     allowlist on: chatgpt.com, claude.ai and the server's own loopback origin; Host allowlist
#     pinned to the port) and always stops it again (trap).
#  3. Runs the official conformance suite in both protocol eras: 0.1.x (active server scenarios,
#     2025-11-25) with scripts/interop-expected-failures.txt as its baseline, and the 0.2.0
#     pre-release (`--requirements 2026-07-28`, the current protocol release) with
#     scripts/interop-expected-failures-2026-07-28.txt.
#  4. Runs the MCP Inspector CLI in both protocol eras (legacy and modern): tools/list --strict,
#     resources/templates/list, prompts/list, one tools/call per tool, one resources/read per
#     template and one prompts/get per prompt (arguments: scripts/interop_calls.json).
#     Then the Claude Desktop set-up snippet as written (`npx -y mcp-remote@<pin> URL`, from
#     pwc_mcp.site.connect, run offline from its own cached install): the Inspector CLI speaks stdio
#     to it, mcp-remote bridges to the server, and tools/list must name every tool.
#     Then the README's Inspector CLI one-liner as written (npx, from its own cache), its endpoint
#     pointed at this server: the call must answer with the ImageNet leaderboard.
#  5. Probes the transport rules with curl.
#  6. Runs the README's `fastmcp dev inspector ...` command headless (scripts/fastmcp_dev_probe.py):
#     the Inspector's web server comes up, the probe connects through it, lists the tools, calls
#     one and stops the process group. npx finds the pinned Inspector in its own cache
#     (.cache/interop/npm, filled in step 1), so the check itself runs offline.
#
# Prints one line per check (PASS / FAIL / XFAIL) and the totals; exits 1 on any FAIL.
# Network: the npm registry for the installs only; everything else stays on loopback.
# Environment: PWC_INTEROP_CACHE (default .cache/interop), PWC_INTEROP_PYTHON (default
# .venv/bin/python).
set -uo pipefail

NODE_VERSION=22.23.3
CONFORMANCE_VERSION=0.1.16
CONFORMANCE_NEXT_VERSION=0.2.0-alpha.12   # the 2026-07-28 suite (pre-release on npm)
INSPECTOR_VERSION=2.12.0
# Scenarios that apply to this server and must pass (the suite also runs the rest).
REQUIRED_SCENARIOS=server-initialize,ping,completion-complete,logging-set-level,tools-list,resources-list,prompts-list,dns-rebinding-protection
REQUIRED_NEXT_SCENARIOS=completion-complete,tools-list,tools-call-error,resources-list,sep-2164-resource-not-found,prompts-list,dns-rebinding-protection,caching,http-header-validation
INSPECTOR_TIMEOUT=30   # seconds per Inspector call: a hung client is a FAIL, not a stuck run
INSTALL_TIMEOUT=240

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRIPTS=$ROOT/scripts
PY=${PWC_INTEROP_PYTHON:-$ROOT/.venv/bin/python}
SERVER_BIN=$(dirname "$PY")/pwc-mcp
CACHE=${PWC_INTEROP_CACHE:-$ROOT/.cache/interop}
NODE_DIR=$CACHE/node22
TOOLS_DIR=$CACHE/tools
TOOLS_NEXT_DIR=$CACHE/tools-next
NPX_CACHE=$CACHE/npm
RUN=$CACHE/last-run
RESULTS=$RUN/results.tsv
EXPECTED=$SCRIPTS/interop-expected-failures.txt
EXPECTED_NEXT=$SCRIPTS/interop-expected-failures-2026-07-28.txt
CALLS=$SCRIPTS/interop_calls.json
HELPER=$SCRIPTS/interop_probe.py
START=$SECONDS
SERVER_PID=
SUMMARY_DONE=
ERA_PIDS=()

export npm_config_yes=true npm_config_audit=false npm_config_fund=false
export npm_config_update_notifier=false npm_config_loglevel=error
export NO_UPDATE_NOTIFIER=1 DO_NOT_TRACK=1 INSPECTOR_SKIP_CLIENT_INSTALL=1

step() { printf 'interop: [%3ss] %s\n' "$((SECONDS - START))" "$*"; }
record() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >> "$RESULTS"; }

summary() {
  [ -n "$SUMMARY_DONE" ] && return
  SUMMARY_DONE=1
  local pass fail xfail
  echo
  echo "== interop summary =="
  while IFS=$'\t' read -r status name detail; do
    if [ -n "$detail" ]; then printf '%-5s  %s  (%s)\n' "$status" "$name" "$detail"
    else printf '%-5s  %s\n' "$status" "$name"; fi
  done < "$RESULTS"
  pass=$(grep -c '^PASS' "$RESULTS")
  fail=$(grep -c '^FAIL' "$RESULTS")
  xfail=$(grep -c '^XFAIL' "$RESULTS")
  echo "== totals: ${pass} passed, ${fail} failed, ${xfail} expected failures" \
       "in $((SECONDS - START))s (logs: ${RUN#"$ROOT"/}) =="
  [ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
}

stop_eras() {
  local pid
  for pid in "${ERA_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  for pid in "${ERA_PIDS[@]}"; do wait "$pid" 2>/dev/null; done
  ERA_PIDS=()
}

stop_server() {
  [ -n "$SERVER_PID" ] || return 0
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$SERVER_PID" 2>/dev/null
  fi
  wait "$SERVER_PID" 2>/dev/null
  SERVER_PID=
}

abort() {  # record why the run cannot go on, print the summary and exit 1 (the trap stops the server)
  record FAIL "$1" "$2"
  summary
  exit 1
}

trap 'stop_eras; stop_server' EXIT
trap 'record FAIL "interrupted" "signal received"; stop_eras; summary; exit 130' INT TERM

rm -rf "$RUN"
mkdir -p "$RUN" "$CACHE/home"
: > "$RESULTS"

[ -x "$PY" ] || abort "python" "$PY not found: run 'make install' first"
[ -x "$SERVER_BIN" ] || abort "pwc-mcp" "$SERVER_BIN not found: run 'make install' first"
command -v npm >/dev/null 2>&1 || abort "npm" "npm is not on PATH (Node.js with npm is required)"
command -v curl >/dev/null 2>&1 || abort "curl" "curl is not on PATH"

version_of() { "$PY" "$HELPER" version "$1"; }

# --- 1. installs (cached) --------------------------------------------------------------------
step "Node $NODE_VERSION (npm package node@$NODE_VERSION) in ${NODE_DIR#"$ROOT"/}"
if [ "$("$NODE_DIR/node_modules/.bin/node" --version 2>/dev/null)" = "v$NODE_VERSION" ]; then
  record PASS "install node@$NODE_VERSION" "cached"
else
  rm -rf "$NODE_DIR" && mkdir -p "$NODE_DIR"
  printf '{"name":"pwc-interop-node","private":true}\n' > "$NODE_DIR/package.json"
  (cd "$NODE_DIR" && timeout "$INSTALL_TIMEOUT" npm install --no-audit --no-fund --save-exact \
      "node@$NODE_VERSION") > "$RUN/npm-node.log" 2>&1
  got=$("$NODE_DIR/node_modules/.bin/node" --version 2>/dev/null)
  [ "$got" = "v$NODE_VERSION" ] \
    || abort "install node@$NODE_VERSION" "got '${got:-nothing}'; see ${RUN#"$ROOT"/}/npm-node.log"
  record PASS "install node@$NODE_VERSION" "installed"
fi
export PATH="$NODE_DIR/node_modules/.bin:$PATH"   # npm, npx and the tools now run on Node 22

CONFORMANCE_PKG=$TOOLS_DIR/node_modules/@modelcontextprotocol/conformance/package.json
INSPECTOR_PKG=$TOOLS_DIR/node_modules/@modelcontextprotocol/inspector/package.json
tools_label="@modelcontextprotocol/conformance@$CONFORMANCE_VERSION + inspector@$INSPECTOR_VERSION"
step "$tools_label in ${TOOLS_DIR#"$ROOT"/}"
if [ "$(version_of "$CONFORMANCE_PKG")" = "$CONFORMANCE_VERSION" ] \
   && [ "$(version_of "$INSPECTOR_PKG")" = "$INSPECTOR_VERSION" ]; then
  record PASS "install $tools_label" "cached"
else
  rm -rf "$TOOLS_DIR" && mkdir -p "$TOOLS_DIR"
  printf '{"name":"pwc-interop-tools","private":true}\n' > "$TOOLS_DIR/package.json"
  (cd "$TOOLS_DIR" && timeout "$INSTALL_TIMEOUT" npm install --no-audit --no-fund --save-exact \
      "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" \
      "@modelcontextprotocol/inspector@$INSPECTOR_VERSION") > "$RUN/npm-tools.log" 2>&1
  if [ "$(version_of "$CONFORMANCE_PKG")" != "$CONFORMANCE_VERSION" ] \
     || [ "$(version_of "$INSPECTOR_PKG")" != "$INSPECTOR_VERSION" ]; then
    abort "install $tools_label" "npm install failed; see ${RUN#"$ROOT"/}/npm-tools.log"
  fi
  record PASS "install $tools_label" "installed"
fi
CONFORMANCE=$TOOLS_DIR/node_modules/.bin/conformance

# The 2026-07-28 suite is a different major line of the same package: its own directory.
NEXT_PKG=$TOOLS_NEXT_DIR/node_modules/@modelcontextprotocol/conformance/package.json
step "@modelcontextprotocol/conformance@$CONFORMANCE_NEXT_VERSION in ${TOOLS_NEXT_DIR#"$ROOT"/}"
if [ "$(version_of "$NEXT_PKG")" = "$CONFORMANCE_NEXT_VERSION" ]; then
  record PASS "install conformance@$CONFORMANCE_NEXT_VERSION" "cached"
else
  rm -rf "$TOOLS_NEXT_DIR" && mkdir -p "$TOOLS_NEXT_DIR"
  printf '{"name":"pwc-interop-tools-next","private":true}\n' > "$TOOLS_NEXT_DIR/package.json"
  (cd "$TOOLS_NEXT_DIR" && timeout "$INSTALL_TIMEOUT" npm install --no-audit --no-fund \
      --save-exact "@modelcontextprotocol/conformance@$CONFORMANCE_NEXT_VERSION") \
    > "$RUN/npm-tools-next.log" 2>&1
  [ "$(version_of "$NEXT_PKG")" = "$CONFORMANCE_NEXT_VERSION" ] \
    || abort "install conformance@$CONFORMANCE_NEXT_VERSION" \
             "npm install failed; see ${RUN#"$ROOT"/}/npm-tools-next.log"
  record PASS "install conformance@$CONFORMANCE_NEXT_VERSION" "installed"
fi
CONFORMANCE_NEXT=$TOOLS_NEXT_DIR/node_modules/.bin/conformance
INSPECTOR=$TOOLS_DIR/node_modules/.bin/mcp-inspector

# `fastmcp dev inspector` starts the Inspector with npx, which resolves it in the current project
# or in npx's cache, never in $TOOLS_DIR: npx gets a cache of its own here, filled once, and the
# check in step 6 runs it offline (otherwise npx asks the registry on every run).
NPX_ENV=(HOME="$CACHE/home" npm_config_cache="$NPX_CACHE")
npx_inspector_version() {
  env "${NPX_ENV[@]}" npm_config_offline=true timeout -k 5 60 \
    npx "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" --version 2>/dev/null < /dev/null
}
step "npx @modelcontextprotocol/inspector@$INSPECTOR_VERSION in ${NPX_CACHE#"$ROOT"/}"
if [ "$(npx_inspector_version)" = "$INSPECTOR_VERSION" ]; then
  record PASS "install inspector@$INSPECTOR_VERSION for npx" "cached"
else
  env "${NPX_ENV[@]}" timeout "$INSTALL_TIMEOUT" \
    npx "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" --version > "$RUN/npm-npx.log" 2>&1 < /dev/null
  [ "$(npx_inspector_version)" = "$INSPECTOR_VERSION" ] \
    || abort "install inspector@$INSPECTOR_VERSION for npx" "see ${RUN#"$ROOT"/}/npm-npx.log"
  record PASS "install inspector@$INSPECTOR_VERSION for npx" "installed"
fi

# mcp-remote, the Claude Desktop bridge: the pin is the snippet's own (pwc_mcp.site.connect).
MCP_REMOTE=$("$PY" -m pwc_mcp.site.connect mcp-remote) || abort "mcp-remote pin" "python -m pwc_mcp.site.connect failed"
MCP_REMOTE_DIR=$CACHE/mcp-remote
MCP_REMOTE_PKG=$MCP_REMOTE_DIR/node_modules/mcp-remote/package.json
step "$MCP_REMOTE in ${MCP_REMOTE_DIR#"$ROOT"/}"
if [ "mcp-remote@$(version_of "$MCP_REMOTE_PKG")" = "$MCP_REMOTE" ]; then
  record PASS "install $MCP_REMOTE" "cached"
else
  rm -rf "$MCP_REMOTE_DIR" && mkdir -p "$MCP_REMOTE_DIR"
  printf '{"name":"pwc-interop-mcp-remote","private":true}\n' > "$MCP_REMOTE_DIR/package.json"
  (cd "$MCP_REMOTE_DIR" && timeout "$INSTALL_TIMEOUT" npm install --no-audit --no-fund \
      --save-exact "$MCP_REMOTE") > "$RUN/npm-mcp-remote.log" 2>&1
  [ "mcp-remote@$(version_of "$MCP_REMOTE_PKG")" = "$MCP_REMOTE" ] \
    || abort "install $MCP_REMOTE" "npm install failed; see ${RUN#"$ROOT"/}/npm-mcp-remote.log"
  record PASS "install $MCP_REMOTE" "installed"
fi

# --- 2. the server -----------------------------------------------------------------------------
PORT=$("$PY" "$HELPER" free-port)
ORIGIN=http://127.0.0.1:$PORT
URL=$ORIGIN/mcp
step "starting pwc-mcp --sample-catalog on $URL (Origin allowlist on)"
env -u PWC_MCP_RATE_LIMIT_STORAGE -u PWC_MCP_TRUSTED_PROXY_CIDRS -u PWC_MCP_CURSOR_KEY_PREVIOUS \
    -u PWC_API_URL -u PORT \
    PWC_MCP_HOST=127.0.0.1 \
    PWC_MCP_ALLOWED_ORIGINS="https://chatgpt.com,https://claude.ai,$ORIGIN" \
    PWC_MCP_ALLOWED_HOSTS="127.0.0.1:$PORT,localhost:$PORT" \
    PWC_MCP_REQUEST_LIMIT=6000 \
    PWC_MCP_CURSOR_KEY_CURRENT="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')" \
    LOG_LEVEL=WARNING \
    "$SERVER_BIN" --sample-catalog --host 127.0.0.1 --port "$PORT" > "$RUN/server.log" 2>&1 &
SERVER_PID=$!
ready=
for _ in $(seq 120); do
  kill -0 "$SERVER_PID" 2>/dev/null || break
  if curl -fsS --max-time 2 -o /dev/null "$ORIGIN/health" 2>/dev/null; then ready=1; break; fi
  sleep 0.25
done
[ -n "$ready" ] || abort "server start" "pwc-mcp did not answer /health; see ${RUN#"$ROOT"/}/server.log"
record PASS "server start" "pwc-mcp on $URL"

# --- 3. the official conformance suite ---------------------------------------------------------
step "conformance suite ($CONFORMANCE_VERSION), active server scenarios"
"$PY" "$HELPER" xfail-yaml "$EXPECTED" "$RUN/expected-failures.yml" \
  || abort "conformance baseline" "cannot read ${EXPECTED#"$ROOT"/}"
(cd "$RUN" && HOME="$CACHE/home" timeout -k 5 180 "$CONFORMANCE" server --url "$URL" \
    --expected-failures "$RUN/expected-failures.yml" -o "$RUN/conformance") \
  > "$RUN/conformance.log" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
  record PASS "conformance suite exit status" "0 with the expected-failures baseline"
else
  record FAIL "conformance suite exit status" \
    "exit $rc (124 = timeout); see ${RUN#"$ROOT"/}/conformance.log"
fi
"$PY" "$HELPER" conformance "$RUN/conformance" "$EXPECTED" "$REQUIRED_SCENARIOS" >> "$RESULTS" \
  || record FAIL "conformance results" "could not read ${RUN#"$ROOT"/}/conformance"

step "conformance suite ($CONFORMANCE_NEXT_VERSION), --requirements 2026-07-28"
"$PY" "$HELPER" xfail-yaml "$EXPECTED_NEXT" "$RUN/expected-failures-2026-07-28.yml" \
  || abort "conformance 2026-07-28 baseline" "cannot read ${EXPECTED_NEXT#"$ROOT"/}"
(cd "$RUN" && HOME="$CACHE/home" timeout -k 5 300 "$CONFORMANCE_NEXT" server --url "$URL" \
    --requirements 2026-07-28 --expected-failures "$RUN/expected-failures-2026-07-28.yml" \
    -o "$RUN/conformance-2026-07-28") > "$RUN/conformance-2026-07-28.log" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
  record PASS "conformance 2026-07-28 exit status" "0 with the expected-failures baseline"
else
  record FAIL "conformance 2026-07-28 exit status" \
    "exit $rc (124 = timeout); see ${RUN#"$ROOT"/}/conformance-2026-07-28.log"
fi
"$PY" "$HELPER" conformance "$RUN/conformance-2026-07-28" "$EXPECTED_NEXT" \
  "$REQUIRED_NEXT_SCENARIOS" "conformance-2026-07-28" >> "$RESULTS" \
  || record FAIL "conformance 2026-07-28 results" "could not read ${RUN#"$ROOT"/}/conformance-2026-07-28"

# --- 4. the Inspector CLI in both protocol eras --------------------------------------------------
"$PY" "$HELPER" inspector-plan "$CALLS" > "$RUN/inspector-plan.tsv" \
  || abort "inspector plan" "cannot read ${CALLS#"$ROOT"/}"
run_era() {  # run_era ERA: every planned Inspector call in one protocol era, one after another
  local era=$1 dir=$RUN/inspector-$1 index=0 kind child
  local -a field args
  trap - EXIT
  trap '[ -n "${child:-}" ] && kill -TERM "$child" 2>/dev/null; exit 143' TERM INT
  mkdir -p "$dir"
  : > "$dir/manifest.tsv"
  while IFS=$'\t' read -r -a field; do
    index=$((index + 1))
    kind=${field[0]}
    case "$kind" in
      tools-list)     args=(--method tools/list --strict) ;;
      templates-list) args=(--method resources/templates/list) ;;
      prompts-list)   args=(--method prompts/list) ;;
      call)           args=(--method tools/call --tool-name "${field[2]}" --tool-args-json "${field[3]}") ;;
      read)           args=(--method resources/read --uri "${field[2]}") ;;
      prompt)         args=(--method prompts/get --prompt-name "${field[2]}")
                      [ "${#field[@]}" -gt 3 ] && args+=(--prompt-args "${field[@]:3}") ;;
      *)              continue ;;
    esac
    printf '%s\t%s\t%s\n' "$index" "$kind" "${field[1]}" >> "$dir/manifest.tsv"
    HOME="$CACHE/home" timeout -k 5 "$INSPECTOR_TIMEOUT" "$INSPECTOR" --cli "$URL" \
      --transport http --protocol-era "$era" --connect-timeout 10000 --format json "${args[@]}" \
      > "$dir/$index.json" 2> "$dir/$index.err" < /dev/null &
    child=$!
    wait "$child"
    echo "$?" > "$dir/$index.rc"
    child=
  done < "$RUN/inspector-plan.tsv"
}
step "Inspector $INSPECTOR_VERSION --cli, --protocol-era legacy and modern side by side"
run_era legacy &
ERA_PIDS=("$!")
run_era modern &
ERA_PIDS+=("$!")
wait "${ERA_PIDS[@]}"
ERA_PIDS=()
for era in legacy modern; do
  "$PY" "$HELPER" inspector-eval "$era" "$RUN/inspector-$era" "$CALLS" >> "$RESULTS" \
    || record FAIL "inspector $era" "could not evaluate ${RUN#"$ROOT"/}/inspector-$era"
done

# The README's Inspector CLI one-liner as a reader runs it (npx, from npx's cache filled above),
# only its endpoint pointed at this server (tests/test_readme_clients.py checks the line).
step "the README's npx @modelcontextprotocol/inspector --cli line"
env "${NPX_ENV[@]}" npm_config_offline=true \
  "$PY" "$HELPER" readme-inspector "$URL" "$RUN/readme-inspector" >> "$RESULTS" < /dev/null \
  || record FAIL "README Inspector CLI line" "the helper failed"

# The Claude Desktop snippet's command, run as Desktop runs it (stdio), bounded like every
# Inspector call; offline, so npx uses the cached install and never fetches at run time.
step "Claude Desktop snippet: $MCP_REMOTE bridging stdio to $URL"
mapfile -t DESKTOP < <("$PY" -m pwc_mcp.site.connect desktop-command "$URL")
HOME="$CACHE/home" timeout -k 5 "$INSPECTOR_TIMEOUT" "$INSPECTOR" --cli --transport stdio \
  --cwd "$MCP_REMOTE_DIR" -e npm_config_offline=true -e "HOME=$CACHE/home" --format json \
  --method tools/list -- "${DESKTOP[@]}" > "$RUN/mcp-remote-tools.json" 2> "$RUN/mcp-remote.err" \
  < /dev/null
rc=$?
missing=$("$PY" -c 'import json, sys
listed = {t["name"] for t in json.load(open(sys.argv[1]))["result"]["tools"]}
print(" ".join(sorted(set(json.load(open(sys.argv[2]))["tools"]) - listed)) or "none")' \
  "$RUN/mcp-remote-tools.json" "$CALLS" 2>/dev/null)
if [ "$rc" -eq 0 ] && [ "$missing" = none ]; then
  record PASS "mcp-remote (Claude Desktop snippet) tools/list" "every tool, via ${DESKTOP[*]:0:3}"
else
  record FAIL "mcp-remote (Claude Desktop snippet) tools/list" \
    "exit $rc (124 = timeout), missing: ${missing:-unreadable}; see ${RUN#"$ROOT"/}/mcp-remote.err"
fi

# --- 5. transport probes with curl ---------------------------------------------------------------
step "transport probes (curl)"
ACCEPT='Accept: application/json, text/event-stream'
JSON='Content-Type: application/json'
LEGACY='MCP-Protocol-Version: 2025-11-25'
meta() {  # the 2026-07-28 request envelope for protocol version $1
  printf '"_meta":{"io.modelcontextprotocol/protocolVersion":"%s","io.modelcontextprotocol/clientInfo":{"name":"interop-curl","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}' "$1"
}
M26=$(meta 2026-07-28)
probe_n=0
# probe NAME STATUS_REGEX MUST_MATCH MUST_NOT_MATCH -- curl arguments...
# MUST_MATCH / MUST_NOT_MATCH are extended regexes over the response headers and body ("" = none).
probe() {
  local name=$1 want=$2 must=$3 mustnot=$4 code text
  shift 5
  probe_n=$((probe_n + 1))
  local out=$RUN/probe-$probe_n
  code=$(curl -sS --max-time 15 -D "$out.headers" -o "$out.body" -w '%{http_code}' "$@" 2> "$out.err")
  text=$(cat "$out.headers" "$out.body" 2>/dev/null | tr -d '\r')
  local body
  body=$(head -c 140 "$out.body" 2>/dev/null | tr -d '\r\n')
  if ! [[ "$code" =~ ^($want)$ ]]; then
    record FAIL "probe $name" "HTTP $code, want $want: $body"
  elif [ -n "$must" ] && ! grep -Eiq -- "$must" <<< "$text"; then
    record FAIL "probe $name" "HTTP $code but missing /$must/: $body"
  elif [ -n "$mustnot" ] && grep -Eiq -- "$mustnot" <<< "$text"; then
    record FAIL "probe $name" "HTTP $code but has /$mustnot/"
  else
    record PASS "probe $name" "HTTP $code"
  fi
}
probe "GET /mcp -> 405 Allow: POST" 405 '^allow: *POST' '' -- -X GET -H "$ACCEPT" "$URL"
probe "DELETE /mcp -> 405" 405 '^allow: *POST' '' -- -X DELETE -H "$ACCEPT" -H "$LEGACY" "$URL"
probe "foreign Origin -> 403" 403 '' '' -- -H "$ACCEPT" -H "$JSON" -H "$LEGACY" \
  -H 'Origin: https://evil.example' -d '{"jsonrpc":"2.0","id":1,"method":"ping"}' "$URL"
probe "own loopback Origin (allowlisted) -> 200" 200 '"result"' '' -- -H "$ACCEPT" -H "$JSON" \
  -H "$LEGACY" -H "Origin: $ORIGIN" -d '{"jsonrpc":"2.0","id":1,"method":"ping"}' "$URL"
probe "allowlisted Origin https://claude.ai -> 200" 200 '"result"' '' -- -H "$ACCEPT" -H "$JSON" \
  -H "$LEGACY" -H 'Origin: https://claude.ai' -d '{"jsonrpc":"2.0","id":1,"method":"ping"}' "$URL"
probe "foreign Host -> 4xx" '4[0-9][0-9]' '' '' -- -H "$ACCEPT" -H "$JSON" -H "$LEGACY" \
  -H 'Host: evil.example' -d '{"jsonrpc":"2.0","id":1,"method":"ping"}' "$URL"
probe "batch -> 400 -32600" 400 '"code": *-32600' 'pydantic|Traceback' -- -H "$ACCEPT" -H "$JSON" \
  -H "$LEGACY" -d '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]' "$URL"
probe "malformed JSON -> 400 -32700" 400 '"code": *-32700' '' -- -H "$ACCEPT" -H "$JSON" \
  -H "$LEGACY" -d '{"jsonrpc":' "$URL"
probe "unsupported MCP-Protocol-Version 1999-01-01 -> 400" 400 '' '' -- -H "$ACCEPT" -H "$JSON" \
  -H 'MCP-Protocol-Version: 1999-01-01' -d '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}' "$URL"
probe "unsupported 2026 version 2099-01-01 -> 400 -32022" 400 '"code": *-32022' '' -- -H "$ACCEPT" \
  -H "$JSON" -H 'MCP-Protocol-Version: 2099-01-01' -H 'Mcp-Method: tools/list' \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{$(meta 2099-01-01)}}" "$URL"
probe "2026-07-28 Mcp-Method mismatch -> 400 -32020" 400 '"code": *-32020' '' -- -H "$ACCEPT" \
  -H "$JSON" -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: prompts/list' \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{$M26}}" "$URL"
probe "2026-07-28 Mcp-Name mismatch -> 400 -32020" 400 '"code": *-32020' '' -- -H "$ACCEPT" \
  -H "$JSON" -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: list_tasks' \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_task\",\"arguments\":{\"task\":\"image-classification\"},$M26}}" "$URL"
probe "2026-07-28 unknown method -> 404 -32601" 404 '"code": *-32601' '' -- -H "$ACCEPT" -H "$JSON" \
  -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: no/such/method' \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such/method\",\"params\":{$M26}}" "$URL"
probe "2026-07-28 server/discover -> public cache hints" 200 '"cacheScope": *"public"' '' -- \
  -H "$ACCEPT" -H "$JSON" -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: server/discover' \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{$M26}}" "$URL"
probe "notification -> 202" 202 '' '' -- -H "$ACCEPT" -H "$JSON" -H "$LEGACY" \
  -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$URL"
probe "initialize is stateless (no Mcp-Session-Id)" 200 '"protocolVersion": *"2025-11-25"' \
  '^mcp-session-id:' -- -H "$ACCEPT" -H "$JSON" -H "$LEGACY" \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"interop-curl","version":"1"}}}' "$URL"

# --- 6. the README's `fastmcp dev inspector` route, headless ------------------------------------
# Last, after every step that writes files here: the server runs with --reload, which restarts it
# on any change under the checkout.
step "fastmcp dev inspector pwc_mcp/dev.py:mcp (README), headless"
verdict=$(env "${NPX_ENV[@]}" npm_config_offline=true timeout -k 5 240 \
  "$PY" "$SCRIPTS/fastmcp_dev_probe.py" "$RUN/fastmcp-dev" 2> "$RUN/fastmcp-dev.err" < /dev/null)
rc=$?
if [ -n "$verdict" ]; then
  printf '%s\n' "$verdict" >> "$RESULTS"
else
  record FAIL "fastmcp dev inspector" "no verdict (exit $rc, 124 = timeout); see ${RUN#"$ROOT"/}/fastmcp-dev.err"
fi

# --- done ----------------------------------------------------------------------------------------
stop_server
if curl -fsS --max-time 2 -o /dev/null "$ORIGIN/health" 2>/dev/null; then
  record FAIL "server stop" "something still answers on $ORIGIN after stopping pwc-mcp"
else
  record PASS "server stop" "port $PORT closed"
fi
summary
