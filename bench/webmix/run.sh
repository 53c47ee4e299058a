#!/usr/bin/env bash
# bench/webmix: a busy web server on 127.0.0.1:80 beside Minecraft traffic
# from real clients, captured live by mcdissect -i lo (its default kernel
# filter) and by tcpdump at once; then tcpdump's capture is run through
# mcdissect -r and the two outputs are compared line by line (frame numbers
# left out: the live capture has no web frames to count), with mcdissect's
# drop count and any line about streams no protocol claims.
#
#   go build -o /tmp/mcdissect ./cmd/mcdissect
#   sudo MCD=/tmp/mcdissect bash bench/webmix/run.sh
#
# Peers: websrv.go (Go's net/http: ten curl downloads of /big, limited to
# RATE each, and the heartbeat's list server), minecraft-protocol's server
# (samples/gen/node/server.js status) on TCP 25565, queryd (samples/gen/go)
# on UDP 25565, drive.js (minecraft-server-util, gamedig, node's http from
# 127.0.0.2 for the heartbeats). Everything binds to loopback and stops by
# itself. Environment: MCD, SECS (30), RATE (curl --limit-rate, 20M), OUT
# (/tmp/webmix), BIN (the samples/gen/go peers, built if absent), MCD_ARGS
# (more mcdissect flags).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
MCD="${MCD:-/tmp/mcdissect}"; SECS="${SECS:-30}"; RATE="${RATE:-20M}"; OUT="${OUT:-/tmp/webmix}"
BIN="${BIN:-$OUT/bin}"; NODE_DIR="$ROOT/samples/gen/node"
mkdir -p "$OUT" "$BIN"
[ -d "$NODE_DIR/node_modules" ] || (cd "$NODE_DIR" && npm ci --no-audit --no-fund >&2)
[ -x "$BIN/queryd" ] || (cd "$ROOT/samples/gen/go" && go build -o "$BIN/" ./cmd/queryd)
[ -x "$BIN/websrv" ] || go build -o "$BIN/websrv" "$HERE/websrv.go"
ip addr show lo | grep -q 127.0.0.2 || true # 127.0.0.0/8 is all lo's
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
LIFE=$((SECS + 30))
"$BIN/websrv" -lifetime "${LIFE}s" 2>"$OUT/websrv.log" & PIDS+=($!)
(cd "$NODE_DIR" && exec node server.js status 25565 "$LIFE") 2>"$OUT/nmp.log" & PIDS+=($!)
"$BIN/queryd" -listen 127.0.0.1:25565 -players 5 -max 20 -hostport 25565 -lifetime "${LIFE}s" 2>"$OUT/queryd.log" & PIDS+=($!)
sleep 2
tcpdump -i lo -s 0 -U -nn -B 65536 --time-stamp-precision=nano -w "$OUT/tcpdump.pcap" \
  'port 25565 or port 19132 or port 25575 or (tcp port 80 and host 127.0.0.2)' 2>"$OUT/tcpdump.err" & TCPD=$!
"$MCD" -i lo -t e ${MCD_ARGS:-} >"$OUT/live.txt" 2>"$OUT/live.err" & LIVE=$!
sleep 1
END=$((SECONDS + SECS))
for i in $(seq 10); do
  (while [ $SECONDS -lt $END ]; do curl -s --limit-rate "$RATE" --max-time $((END - SECONDS + 1)) -o /dev/null http://127.0.0.1/big || true; done) & PIDS+=($!)
done
(cd "$NODE_DIR" && NODE_PATH="$NODE_DIR/node_modules" node "$HERE/drive.js" "$SECS") >"$OUT/drive.log" 2>&1
sleep 1
kill -INT "$LIVE"; wait "$LIVE" || true
kill -INT "$TCPD"; wait "$TCPD" || true
"$MCD" -r "$OUT/tcpdump.pcap" -t e >"$OUT/file.txt" 2>"$OUT/file.err" || true
# Frame numbers and times left out: each capture socket stamps a loopback
# packet itself, a microsecond or so apart; the largest gap is printed.
strip() { sed -E 's/^ *[0-9]+ +[0-9.]+ //' "$1"; }
epochs() { awk '{print $2}' "$1"; }
echo "load average: $(cat /proc/loadavg)"
echo "clients: $(tail -1 "$OUT/drive.log")"
echo "heartbeats answered: $(grep -c heartbeat "$OUT/websrv.log")"
echo "tcpdump: $(grep -E 'captured|received|dropped' "$OUT/tcpdump.err" | tr '\n' ' ')"
echo "live: $(grep -E 'captured|dropped' "$OUT/live.err" | tr '\n' ' ')"
echo "records: live $(wc -l <"$OUT/live.txt"), tcpdump's capture $(wc -l <"$OUT/file.txt")"
echo "lines about unclaimed streams or HTTP: $(grep -cE 'no protocol claims|HTTP' "$OUT/live.txt" || true) (those not heartbeats: $(grep -E 'no protocol claims|HTTP' "$OUT/live.txt" | grep -vc Heartbeat || true))"
if diff <(strip "$OUT/file.txt") <(strip "$OUT/live.txt") >"$OUT/diff.txt"; then
  echo "live output = tcpdump's capture through mcdissect -r, line for line (frame numbers aside; times at most $(paste <(epochs "$OUT/file.txt") <(epochs "$OUT/live.txt") | awk '{d=$1-$2; if(d<0)d=-d; if(d>m)m=d} END{printf "%.0f", m*1e6}') µs apart)"
elif diff <(strip "$OUT/file.txt" | sort) <(strip "$OUT/live.txt" | sort) >"$OUT/diff-sorted.txt"; then
  # Packets sent on both cores at once may reach two sockets in either order.
  echo "live output = tcpdump's capture through mcdissect -r, the same records; $(grep -c '^<' "$OUT/diff.txt" || true) in another order ($OUT/diff.txt)"
else
  echo "live output differs from the file run: $(grep -c '^<' "$OUT/diff-sorted.txt" || true) records only in the file run, $(grep -c '^>' "$OUT/diff-sorted.txt" || true) only live ($OUT/diff-sorted.txt)"
fi
