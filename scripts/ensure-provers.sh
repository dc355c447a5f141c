#!/usr/bin/env bash
# What prove-app's runners need, on a fresh Debian with Node 20: a JDK (17+) and Maven for the
# Spring runners, Python 3 with venv for Celery (installed with apt-get when missing); then the
# three Spring flavours built (Maven Central on the first run, offline after: ~/.m2) and Celery's
# virtual environment made from its pinned requirements. Rascal and NestJS come with pnpm install.
# Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."
R=apps/server/src/prove/runners
need=()
command -v java >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need+=(maven)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then need+=(python3-venv); fi
if [ ${#need[@]} -gt 0 ]; then
  echo "installing for prove-app: ${need[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
for flavour in boot35 boot40 stream; do
  # offline when ~/.m2 has everything; Maven compiles only what changed
  (cd "$R/spring" && { mvn -B -q -o -P "$flavour" compile >/dev/null 2>&1 || mvn -B -q -P "$flavour" compile; })
done
if ! cmp -s "$R/celery/requirements.txt" "$R/celery/.venv/prove-requirements.txt"; then
  rm -rf "$R/celery/.venv"
  python3 -m venv "$R/celery/.venv"
  "$R/celery/.venv/bin/python" -m pip install -q -r "$R/celery/requirements.txt"
  cp "$R/celery/requirements.txt" "$R/celery/.venv/prove-requirements.txt"
fi
echo "prove-app runners: Spring (boot35, boot40, stream) built, Celery $("$R/celery/.venv/bin/python" -c 'import celery; print(celery.__version__)'), Rascal and NestJS from pnpm"
