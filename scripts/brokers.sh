#!/usr/bin/env bash
# Starts, stops and reports the test brokers, side by side on one machine:
#   3.10  Debian bookworm's rabbitmq-server on the host: AMQP 5672, management 15672.
#   4.3   Debian unstable's rabbitmq-server in a debootstrap chroot kept outside the clone
#         (RETRY_STUDIO_CHROOT, default /var/lib/retry-studio/rabbitmq-4.3): AMQP 5673,
#         management 15673, node rabbit4@localhost, distribution port 25673, epmd port 4370.
#   cluster  three RabbitMQ 4.3 nodes from the same chroot joined into one cluster:
#         rabbit-c1/c2/c3@localhost, AMQP 5674/5675/5676, management 15674/15675/15676,
#         distribution ports 25674/25675/25676 (epmd 4370, shared with rabbit4).
# Usage: scripts/brokers.sh up|down|status [3.10|4.3|cluster|all]   (default: all = 3.10 and 4.3)
# Idempotent: a broker already answering on its ports is used as it is. Traps and sources are in
# ../shared/reference/rabbitmq-4.3.md (sid's Release file is past Valid-Until; Erlang needs
# /etc/hosts; /proc and /dev must be bind-mounted).
set -euo pipefail

CHROOT="${RETRY_STUDIO_CHROOT:-/var/lib/retry-studio/rabbitmq-4.3}"
MIRROR="${RETRY_STUDIO_DEBIAN_MIRROR:-}"
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
APT_NO_VALID=(-o Acquire::Check-Valid-Until=false)
ENV43=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/var/lib/rabbitmq ERL_EPMD_PORT=4370 LANG=C.UTF-8)

log() { echo "brokers: $*" >&2; }
die() { echo "brokers: error: $*" >&2; exit 1; }

mgmt_version() { # port -> prints "product_version" or nothing
  curl -fs -m 3 -u guest:guest "http://127.0.0.1:$1/api/overview" 2>/dev/null |
    sed -n 's/.*"rabbitmq_version":"\([^"]*\)".*/\1/p' | head -1 || true
}
amqp_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_for() { # what seconds command...
  local what=$1 secs=$2; shift 2
  for _ in $(seq 1 "$secs"); do "$@" && return 0; sleep 1; done
  die "$what did not come up within ${secs}s"
}

# ---------- 3.10: the host's broker ----------
up310() {
  if ! command -v rabbitmq-server >/dev/null 2>&1; then
    log "installing rabbitmq-server (host)"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq rabbitmq-server >/dev/null
  fi
  if ! amqp_open 5672; then
    log "starting 3.10 (rabbitmq-server -detached)"
    $SUDO rabbitmq-server -detached >/dev/null 2>&1 || true
    wait_for "RabbitMQ 3.10 on 127.0.0.1:5672" 90 \
      bash -c 'rabbitmq-diagnostics -q check_port_connectivity >/dev/null 2>&1'
  fi
  if [ -z "$(mgmt_version 15672)" ]; then
    $SUDO rabbitmq-plugins -q enable rabbitmq_management >/dev/null 2>&1 || true
    wait_for "the 3.10 management API on 15672" 60 bash -c "[ -n \"\$(curl -fs -m 3 -u guest:guest http://127.0.0.1:15672/api/overview)\" ]"
  fi
  # the dynamic shovel is what `pnpm bench:redrive` compares the re-drive with (it ships with RabbitMQ)
  curl -fs -m 3 -u guest:guest http://127.0.0.1:15672/api/shovels >/dev/null 2>&1 ||
    $SUDO rabbitmq-plugins -q enable rabbitmq_shovel rabbitmq_shovel_management >/dev/null 2>&1 || true
  log "3.10: $(mgmt_version 15672) on amqp 5672, management 15672"
}
down310() { $SUDO rabbitmqctl -q stop >/dev/null 2>&1 || true; log "3.10 stopped"; }
status310() {
  local v; v=$(mgmt_version 15672)
  if amqp_open 5672; then echo "3.10: up (RabbitMQ ${v:-?, management not answering}) amqp 5672, management 15672"
  else echo "3.10: down"; fi
}

# ---------- 4.3: Debian unstable in a chroot ----------
mirror() {
  if [ -n "$MIRROR" ]; then echo "$MIRROR"; return; fi
  # The mirror the host already uses (deb822 or one-line sources).
  local m
  m=$(grep -hs '^URIs:' /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '{print $2}' | grep -m1 '/debian/\?$' || true)
  [ -n "$m" ] || m=$(grep -hs '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | grep -m1 '/debian/\?$' || true)
  echo "${m:-http://deb.debian.org/debian}"
}
in_chroot() { $SUDO chroot "$CHROOT" "${ENV43[@]}" "$@"; }
mount_chroot() {
  local d
  for d in proc dev; do
    mountpoint -q "$CHROOT/$d" || $SUDO mount --bind "/$d" "$CHROOT/$d"
  done
  $SUDO cp /etc/hosts "$CHROOT/etc/hosts"
  $SUDO cp /etc/resolv.conf "$CHROOT/etc/resolv.conf" 2>/dev/null || true
}
create_chroot() {
  command -v debootstrap >/dev/null 2>&1 || {
    log "installing debootstrap"
    $SUDO apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq debootstrap >/dev/null ||
      die "step 'install debootstrap' failed"
  }
  local m; m=$(mirror)
  log "creating the 4.3 chroot in $CHROOT from $m (sid); this takes about a minute"
  $SUDO mkdir -p "$(dirname "$CHROOT")"
  $SUDO rm -rf "$CHROOT.partial"
  $SUDO debootstrap --variant=minbase sid "$CHROOT.partial" "$m" >/tmp/retry-studio-debootstrap.log 2>&1 ||
    die "step 'debootstrap sid' failed (log: /tmp/retry-studio-debootstrap.log)"
  $SUDO mv "$CHROOT.partial" "$CHROOT"
}
install_rabbit43() {
  mount_chroot
  # Keep the package's own service scripts from trying to start anything during install.
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$CHROOT/usr/sbin/policy-rc.d" >/dev/null
  $SUDO chmod +x "$CHROOT/usr/sbin/policy-rc.d"
  in_chroot apt-get "${APT_NO_VALID[@]}" -qq update >/tmp/retry-studio-chroot-apt.log 2>&1 ||
    die "step 'apt-get update in the chroot' failed (log: /tmp/retry-studio-chroot-apt.log)"
  in_chroot env DEBIAN_FRONTEND=noninteractive apt-get "${APT_NO_VALID[@]}" install -y -qq \
    --no-install-recommends rabbitmq-server rabbitmqadmin-ng curl ca-certificates >>/tmp/retry-studio-chroot-apt.log 2>&1 ||
    die "step 'apt-get install rabbitmq-server in the chroot' failed (log: /tmp/retry-studio-chroot-apt.log)"
}
configure43() {
  $SUDO mkdir -p "$CHROOT/etc/rabbitmq"
  printf 'listeners.tcp.default = 5673\nmanagement.tcp.port = 15673\nloopback_users = none\n' |
    $SUDO tee "$CHROOT/etc/rabbitmq/rabbitmq.conf" >/dev/null
  printf 'NODENAME=rabbit4@localhost\nDIST_PORT=25673\n' | $SUDO tee "$CHROOT/etc/rabbitmq/rabbitmq-env.conf" >/dev/null
  echo '[rabbitmq_management,rabbitmq_shovel,rabbitmq_shovel_management].' | $SUDO tee "$CHROOT/etc/rabbitmq/enabled_plugins" >/dev/null
}
version43() { in_chroot dpkg-query -W -f='${Version}' rabbitmq-server 2>/dev/null || true; }
up43() {
  local v; v=$(mgmt_version 15673)
  if [ -n "$v" ] && amqp_open 5673; then
    curl -fs -m 3 -u guest:guest http://127.0.0.1:15673/api/shovels >/dev/null 2>&1 ||
      in_chroot rabbitmq-plugins -q -n rabbit4@localhost enable rabbitmq_shovel rabbitmq_shovel_management >/dev/null 2>&1 || true
    log "4.3: RabbitMQ $v already answering on amqp 5673, management 15673"
    warn_version "$v"; return 0
  fi
  local t0; t0=$(date +%s)
  # rabbitmqadmin v2 builds an HTTP client that needs a CA bundle even for plain http
  [ -x "$CHROOT/usr/sbin/rabbitmq-server" ] && [ -f "$CHROOT/etc/ssl/certs/ca-certificates.crt" ] || {
    [ -d "$CHROOT/usr" ] || create_chroot
    install_rabbit43
  }
  mount_chroot
  configure43
  if ! amqp_open 5673; then
    log "starting 4.3 (rabbit4@localhost) in $CHROOT"
    in_chroot sh -c 'rabbitmq-server -detached >/var/log/rabbitmq/detached.log 2>&1 || (nohup rabbitmq-server >/var/log/rabbitmq/foreground.log 2>&1 &)' ||
      true
  fi
  wait_for "RabbitMQ 4.3 on 127.0.0.1:5673" 120 amqp_open 5673
  wait_for "the 4.3 management API on 15673" 90 bash -c "[ -n \"\$(curl -fs -m 3 -u guest:guest http://127.0.0.1:15673/api/overview)\" ]"
  v=$(mgmt_version 15673)
  log "4.3: RabbitMQ $v up on amqp 5673, management 15673 in $(( $(date +%s) - t0 ))s"
  warn_version "$v"
}
warn_version() {
  case "$1" in
    4.3.*) ;;
    *) echo "brokers: WARNING: Debian unstable now ships RabbitMQ $1, not 4.3.x. The 4.3.6 recordings stay the truth for the 4.3 profile; tests on this broker may differ." >&2 ;;
  esac
}
down43() {
  if [ -x "$CHROOT/usr/sbin/rabbitmqctl" ]; then
    in_chroot rabbitmqctl -q -n rabbit4@localhost stop >/dev/null 2>&1 || true
  fi
  log "4.3 stopped"
}
status43() {
  local v; v=$(mgmt_version 15673)
  if amqp_open 5673; then echo "4.3: up (RabbitMQ ${v:-?, management not answering}) amqp 5673, management 15673, chroot $CHROOT"
  elif [ -x "$CHROOT/usr/sbin/rabbitmq-server" ]; then echo "4.3: down (chroot ready: $CHROOT, package $(version43))"
  else echo "4.3: down (no chroot at $CHROOT yet)"; fi
}

# ---------- cluster: three 4.3 nodes in the same chroot ----------
CLUSTER_NODES=(1 2 3)
cnode() { echo "rabbit-c$1@localhost"; }
cenv() { # node index -> env assignments for that node (the chroot's rabbitmq-env.conf names rabbit4; these win)
  local i=$1
  echo RABBITMQ_NODENAME="$(cnode "$i")" RABBITMQ_NODE_PORT=$((5673 + i)) RABBITMQ_DIST_PORT=$((25673 + i)) \
    RABBITMQ_MNESIA_BASE=/var/lib/rabbitmq/cluster/c$i RABBITMQ_LOG_BASE=/var/log/rabbitmq/cluster-c$i \
    RABBITMQ_CONFIG_FILE=/etc/rabbitmq/cluster/c$i.conf RABBITMQ_PID_FILE=/var/lib/rabbitmq/cluster/c$i.pid
}
cctl() { local i=$1; shift; in_chroot rabbitmqctl -q -n "$(cnode "$i")" "$@"; }
configure_cluster() {
  local i
  $SUDO mkdir -p "$CHROOT/etc/rabbitmq/cluster"
  for i in "${CLUSTER_NODES[@]}"; do
    printf 'listeners.tcp.default = %s\nmanagement.tcp.port = %s\nloopback_users = none\n' $((5673 + i)) $((15673 + i)) |
      $SUDO tee "$CHROOT/etc/rabbitmq/cluster/c$i.conf" >/dev/null
    in_chroot sh -c "mkdir -p /var/lib/rabbitmq/cluster/c$i /var/log/rabbitmq/cluster-c$i && chown -R rabbitmq:rabbitmq /var/lib/rabbitmq/cluster /var/log/rabbitmq/cluster-c$i"
  done
}
cluster_size() { # members the management API of node 1 reports as running
  curl -fs -m 3 -u guest:guest http://127.0.0.1:15674/api/nodes 2>/dev/null | grep -o '"running":true' | wc -l || true
}
CLUSTER_NAME=retry-studio-cluster
name_cluster() { # every node reports the same cluster_name (else each reports its own node name)
  curl -fs -m 3 -u guest:guest http://127.0.0.1:15674/api/overview 2>/dev/null | grep -q "\"cluster_name\":\"$CLUSTER_NAME\"" ||
    cctl 1 set_cluster_name "$CLUSTER_NAME" >/dev/null || die "step 'set_cluster_name $CLUSTER_NAME' failed"
}
upcluster() {
  local t0 i; t0=$(date +%s)
  if [ "$(cluster_size)" = 3 ]; then name_cluster; log "cluster: 3 nodes already running (amqp 5674-5676)"; return 0; fi
  [ -x "$CHROOT/usr/sbin/rabbitmq-server" ] || { [ -d "$CHROOT/usr" ] || create_chroot; install_rabbit43; }
  mount_chroot; configure_cluster
  for i in "${CLUSTER_NODES[@]}"; do
    amqp_open $((5673 + i)) && continue
    log "cluster: starting $(cnode "$i")"
    # shellcheck disable=SC2046
    in_chroot env $(cenv "$i") sh -c "rabbitmq-server -detached >/var/log/rabbitmq/cluster-c$i.detached.log 2>&1" || true
  done
  for i in "${CLUSTER_NODES[@]}"; do wait_for "cluster node $(cnode "$i")" 120 amqp_open $((5673 + i)); done
  for i in 2 3; do
    if ! cctl "$i" cluster_status 2>/dev/null | grep -q "$(cnode 1)"; then
      log "cluster: joining $(cnode "$i") to $(cnode 1)"
      cctl "$i" stop_app >/dev/null
      cctl "$i" join_cluster "$(cnode 1)" >/dev/null || die "step 'join_cluster $(cnode "$i")' failed"
      cctl "$i" start_app >/dev/null
    fi
  done
  wait_for "the cluster's management API on 15674" 90 bash -c "[ \"\$(curl -fs -m 3 -u guest:guest http://127.0.0.1:15674/api/nodes | grep -o '\"running\":true' | wc -l)\" = 3 ]"
  name_cluster
  log "cluster: 3 nodes running (amqp 5674-5676, management 15674-15676) in $(( $(date +%s) - t0 ))s"
}
downcluster() {
  local i
  for i in 3 2 1; do amqp_open $((5673 + i)) && cctl "$i" stop >/dev/null 2>&1 || true; done
  log "cluster stopped"
}
statuscluster() {
  local i
  for i in "${CLUSTER_NODES[@]}"; do
    if amqp_open $((5673 + i)); then echo "cluster: $(cnode "$i") up (RabbitMQ $(mgmt_version $((15673 + i)))) amqp $((5673 + i)), management $((15673 + i))"
    else echo "cluster: $(cnode "$i") down"; fi
  done
  echo "cluster: $(cluster_size) of 3 nodes running as seen from $(cnode 1)"
}

cmd="${1:-status}"; which="${2:-all}"
case "$which" in 3.10|4.3|cluster|all) ;; *) die "unknown broker '$which' (3.10, 4.3, cluster or all)";; esac
run() { [ "$which" = all ] && [ "$1" != cluster ] || [ "$which" = "$1" ]; }
case "$cmd" in
  up) run 3.10 && up310; run 4.3 && up43; run cluster && upcluster; true ;;
  down) run 3.10 && down310; run 4.3 && down43; run cluster && downcluster; true ;;
  status) run 3.10 && status310; run 4.3 && status43; run cluster && statuscluster; true ;;
  *) echo "usage: scripts/brokers.sh up|down|status [3.10|4.3|cluster|all]" >&2; exit 2 ;;
esac
