#!/usr/bin/env bash
# Installs the conformance run's tools (requirements.txt, pinned) into
# tests/conformance/.venv, unless that venv already holds exactly them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
venv="$here/.venv"
stamp="$venv/requirements.txt"
if [ -f "$stamp" ] && cmp -s "$stamp" "$here/requirements.txt"; then
  exit 0
fi
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
cp "$here/requirements.txt" "$stamp"
