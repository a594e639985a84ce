#!/usr/bin/env bash
# The API as other people's tools see it: `tabletape serve` on a scratch
# store, then (1) schemathesis drives every operation of the served
# OpenAPI document, every phase, and must find nothing, and (2) a client
# generated from that document (openapi-python-client) plays a short Lost
# Worlds duel with duel.py. Needs TABLETAPE_BIN and the tools install.sh
# installs. The tester holds the run's operator token (the owner of every
# game and the store's admin, as `serve` notes it beside the store for the
# CLI), so its stateful phase can follow a new game's links into it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${TABLETAPE_BIN:?TABLETAPE_BIN names the tabletape binary to serve}
venv="$here/.venv"
py="$venv/bin/python"

work=$(mktemp -d)
server=
cleanup() {
  [ -z "$server" ] || kill "$server" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
"$bin" --store "$work/store" serve --addr "127.0.0.1:$port" >"$work/serve.log" 2>&1 &
server=$!
# The document as served and the operator's token, once the server answers.
"$py" - "$base/openapi.json" "$work/openapi.json" "$work/store/serve.json" "$work/token" <<'PY'
import json, sys, time, urllib.request
url, document, note, token = sys.argv[1:]
for _ in range(200):
    try:
        with urllib.request.urlopen(url) as answer:
            open(document, "wb").write(answer.read())
        open(token, "w").write(json.load(open(note))["token"])
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit("the server did not answer")
PY

echo "== schemathesis"
# From the scratch directory: the tool keeps a cache of past failures where
# it runs, and each run here starts from nothing. One worker: hypothesis
# parses lambdas' source with ast.parse, which CPython before 3.11.8 cannot
# do from two threads at once (SystemError "AST constructor recursion depth
# mismatch", CPython gh-106905), and one is no slower here.
(cd "$work" && "$venv/bin/schemathesis" --config-file "$here/schemathesis.toml" run "$base/openapi.json" \
  --header "Authorization: Bearer $(cat "$work/token")" --workers 1 --no-color ${SCHEMATHESIS_ARGS:-}) ||
  { echo "-- the server's log:"; tail -n 40 "$work/serve.log"; exit 1; }

echo "== a generated client plays a duel"
"$venv/bin/openapi-python-client" generate --path "$work/openapi.json" --meta none \
  --output-path "$work/client/tabletape_client" >"$work/generate.log" 2>&1 ||
  { cat "$work/generate.log"; exit 1; }
PYTHONPATH="$work/client" "$py" "$here/duel.py" "$base"
