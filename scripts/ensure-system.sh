#!/usr/bin/env bash
# Installs and starts what the tests need on a fresh Debian machine: RabbitMQ and Chromium.
set -euo pipefail
need=()
command -v rabbitmq-server >/dev/null 2>&1 || need+=(rabbitmq-server)
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! rabbitmq-diagnostics -q ping >/dev/null 2>&1; then
  echo "starting rabbitmq-server"
  rabbitmq-server -detached >/dev/null 2>&1 || true
fi
up=0
for _ in $(seq 1 90); do
  if rabbitmq-diagnostics -q check_port_connectivity >/dev/null 2>&1; then up=1; break; fi
  sleep 1
done
[ $up = 1 ] || { echo "RabbitMQ did not come up on 127.0.0.1:5672" >&2; exit 1; }
# The management API lets deploy plans read broker state without side effects, and gives
# the conformance runner throwaway vhosts.
rabbitmq-plugins -q enable rabbitmq_management >/dev/null 2>&1 || true
for _ in $(seq 1 60); do
  curl -fs -u guest:guest http://127.0.0.1:15672/api/overview >/dev/null 2>&1 && exit 0
  sleep 1
done
echo "warning: the RabbitMQ management API is not answering on 15672" >&2
exit 0
