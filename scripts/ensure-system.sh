#!/usr/bin/env bash
# Installs and starts what the tests need on a fresh Debian machine: both RabbitMQ brokers
# (3.10.8 on the host, 4.3 in a chroot: scripts/brokers.sh), Chromium, and prove-app's runners
# (a JDK, Maven, Python: scripts/ensure-provers.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  echo "installing: chromium"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
bash scripts/ensure-provers.sh
bash scripts/brokers.sh up all
bash scripts/brokers.sh status all
