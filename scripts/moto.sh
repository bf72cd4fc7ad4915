#!/usr/bin/env bash
# moto's server, the EC2 and STS emulator the Terraform test runs the AWS provider against, installed once from PyPI
# into a virtualenv in the lab's cache outside the clone (later test runs on the machine reuse it). Prints the
# virtualenv's bin directory (moto_server, and python with boto3 for the test's own checks) on its last line of stdout.
# Exit codes: 0 ready; 2 python3 (with venv) is missing; 1 the install failed.
set -euo pipefail
MOTO_VERSION=5.2.5
cache="${LAB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/loom-lab}"
venv="$cache/moto-$MOTO_VERSION"
if [[ ! -x "$venv/bin/moto_server" ]]; then
  command -v python3 >/dev/null 2>&1 || { echo "moto: python3 not found: apt-get install python3-venv" >&2; exit 2; }
  mkdir -p "$cache"
  exec 9>"$cache/moto.lock"
  flock 9
  if [[ ! -x "$venv/bin/moto_server" ]]; then
    echo "moto: installing moto[server]==$MOTO_VERSION from PyPI into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv" || { echo "moto: python3 -m venv failed: apt-get install python3-venv" >&2; exit 2; }
    "$venv/bin/pip" install -q "moto[server]==$MOTO_VERSION" >&2
  fi
fi
echo "$venv/bin"
