#!/usr/bin/env bash
# Regenerates mcdissect's own real-traffic samples (see samples/README.md).
#
#   bash samples/gen/capture.sh TARGET...     (run as root: tcpdump needs it)
#   bash samples/gen/capture.sh all
#   bash samples/gen/capture.sh list
#
# Every peer binds to 127.0.0.1 only; every server stops by itself after a lifetime.
# Target names are the sample names. Captures go to samples/TARGET.pcap, the peers' own output to samples/TARGET.log.
# tcpdump: tcpdump -i lo -s 0 -U -nn -w samples/TARGET.pcap 'FILTER'  (filter per target below)
set -euo pipefail

GEN="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SAMPLES="$(dirname "$GEN")"
NODE_DIR="$GEN/node"
PLAY_DIR="$GEN/play"   # the play-state peers: mineflayer and a newer minecraft-protocol (own lock file)
GO_DIR="$GEN/go"
BIN="${MCD_BIN:-}"   # where the Go peers are built (a temp dir unless MCD_BIN is set)
H=127.0.0.1

log() { echo "[capture] $*" >&2; }

setup() {
  for t in tcpdump node npm go ss; do
    command -v "$t" >/dev/null || { log "missing $t (apt-get install -y tcpdump iproute2; Node >= 20; Go >= 1.22)"; exit 1; }
  done
  if [ ! -d "$NODE_DIR/node_modules" ]; then
    log "npm ci in $NODE_DIR"
    (cd "$NODE_DIR" && npm ci --no-audit --no-fund >&2)
  fi
  if [ ! -d "$PLAY_DIR/node_modules" ]; then
    log "npm ci in $PLAY_DIR"
    (cd "$PLAY_DIR" && npm ci --no-audit --no-fund >&2)
  fi
  [ -n "$BIN" ] || BIN="$(mktemp -d /tmp/mcdissect-gen.XXXXXX)"
  if [ ! -x "$BIN/queryd" ]; then
    log "building Go peers into $BIN"
    (cd "$GO_DIR" && go build -o "$BIN/" ./cmd/...)
  fi
}

port_free() { # PORT: refuse to capture on a port something else already uses
  if ss -H -ltnu "( sport = :$1 )" | grep -q .; then
    log "port $1 is in use by someone else; not capturing there"; exit 1
  fi
}

CAP_PID=""; CAP_ERR=""
cap_start() { # FILE FILTER [TCPDUMP_OPTION...]
  CAP_ERR="$(mktemp)"
  tcpdump -i lo -s 0 -U -nn "${@:3}" -w "$1" "$2" 2>"$CAP_ERR" &
  CAP_PID=$!
  for _ in $(seq 50); do grep -q "listening on" "$CAP_ERR" && break; sleep 0.1; done
  grep -q "listening on" "$CAP_ERR" || { cat "$CAP_ERR" >&2; exit 1; }
  sleep 0.3
}
cap_stop() { # tcpdump's closing counts (captured / received by filter / dropped by kernel) go into the log
  sleep 1 # let FINs and late replies in
  kill -CONT "$CAP_PID" 2>/dev/null || true
  kill -INT "$CAP_PID"; wait "$CAP_PID" 2>/dev/null || true
  { echo "## tcpdump"; grep -E "packets (captured|received|dropped)" "$CAP_ERR"; } >>"$LOG"
  rm -f "$CAP_ERR"
  chown --reference="$SAMPLES" "$PCAP" 2>/dev/null || true
  CAP_PID=""; CAP_ERR=""
}
# stall PID ROUNDS STOP_S RUN_S: stop the capturing tcpdump for STOP_S, let it run for RUN_S,
# ROUNDS times. While it is stopped nobody reads its ring buffer; once the buffer (-B) is full
# the kernel drops what the filter accepts, as it does when tcpdump falls behind on a busy
# machine. The drops are the kernel's own, counted in tcpdump's "dropped by kernel" line.
stall() {
  for _ in $(seq "$2"); do
    kill -STOP "$1"; sleep "$3"; kill -CONT "$1"; sleep "$4"
  done
}

SRV_PID=""
srv_wait_tcp() { for _ in $(seq 100); do ss -H -ltn "( sport = :$1 )" | grep -q . && return 0; sleep 0.1; done; log "server on $1 did not start"; exit 1; }
srv_wait_udp() { for _ in $(seq 100); do ss -H -lun "( sport = :$1 )" | grep -q . && return 0; sleep 0.1; done; log "server on udp $1 did not start"; exit 1; }
srv_stop() { for p in "$@"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; }

nodec() { # CLIENT PORT [N]  -- a Node client, its output into the log
  nodeh "$1" $H "${@:2}"
}
nodeh() { # CLIENT HOST PORT [N]  -- nodec to another host
  echo "## node client.js $*" >>"$LOG"
  (cd "$NODE_DIR" && timeout 30 node --no-deprecation client.js "$@") >>"$LOG" 2>&1 || echo "(exit $?)" >>"$LOG"
  sleep 0.3
}
mcutil() { # ARGS...  -- the Go mcutil client
  echo "## mcutil-client $*" >>"$LOG"
  timeout 30 "$BIN/mcutil-client" "$@" >>"$LOG" 2>&1 || echo "(exit $?)" >>"$LOG"
  sleep 0.3
}

begin() { # NAME: start log
  NAME="$1"; PCAP="$SAMPLES/$1.pcap"; LOG="$SAMPLES/$1.log"
  : >"$LOG"
  log "== $NAME"
}

queryd() { # PORT [flags...]  -- our stand-in Query server (background); log to $LOG.server
  "$BIN/queryd" -listen "$H:$1" "${@:2}" 2>>"$LOG.server" &
  QD_PID=$!; srv_wait_udp "$1"
}
nmpd() { # MODE PORT LIFETIME  -- minecraft-protocol server (background)
  (cd "$NODE_DIR" && exec node server.js "$1" "$2" "$3") 2>>"$LOG.server" &
  NMP_PID=$!; srv_wait_tcp "$2"
}
in_status() { # N: wait (at most 20 s) until the server has logged N connections switching to the status state
  for _ in $(seq 400); do [ "$(grep -c -- '-> status' "$LOG.server" 2>/dev/null)" -ge "$1" ] && return 0; sleep 0.05; done
}
finish() { # append server logs after the client log
  if [ -f "$LOG.server" ]; then { echo "## server log"; cat "$LOG.server"; } >>"$LOG"; rm -f "$LOG.server"; fi
  log "wrote $PCAP ($(stat -c %s "$PCAP") bytes) and $LOG"
}

# ---------------------------------------------------------------- targets
t_query_clients() { # Query clients against queryd on UDP 25585
  local P=25585; begin query-clients; port_free $P
  queryd $P -players 3 -max 20 -hostport 25565 -lifetime 60s
  cap_start "$PCAP" "port $P"
  nodec msu-query-basic $P; nodec msu-query-full $P
  nodec mcquery-basic $P; nodec mcquery-full $P
  nodec craftping-query-basic $P; nodec craftping-query-full $P
  mcutil query-basic $H $P; mcutil query-full $H $P
  nodec gamedig $P
  cap_stop; srv_stop $QD_PID; finish
}

t_query_gamedig() { # gamedig alone against queryd on UDP 25586: no other client teaches the heuristic the server
  local P=25586; begin query-gamedig; port_free $P
  queryd $P -players 2 -max 20 -hostport $P -lifetime 60s
  cap_start "$PCAP" "port $P"
  nodec gamedig $P
  cap_stop; srv_stop $QD_PID; finish
}

t_query_25565() { # like a vanilla server with query.port = server-port: UDP query + TCP SLP on 25565
  local P=25565; begin query-25565; port_free $P
  queryd $P -players 5 -max 100 -hostport $P -motd "mcdissect §atest§r server" -lifetime 60s
  nmpd status $P 60
  cap_start "$PCAP" "port $P"
  nodec msu-query-basic $P; nodec msu-query-full $P
  mcutil query-basic $H $P; mcutil query-full $H $P
  nodec craftping-query-full $P
  nodec gamedig $P
  cap_stop; srv_stop $QD_PID $NMP_PID; finish
}

t_query_full_300players() { # full stat with 300 player names (one ~3.5 KB datagram; loopback MTU 65536, no fragments)
  local P=25586; begin query-full-300players; port_free $P
  queryd $P -players 300 -max 500 -hostport 25565 -lifetime 60s
  cap_start "$PCAP" "port $P"
  nodec msu-query-full $P
  mcutil query-full $H $P
  nodec craftping-query-full $P
  nodec mcquery-full $P
  cap_stop; srv_stop $QD_PID; finish
}

slp_one() { # NAME CLIENTCMD...: one status client against minecraft-protocol on TCP 25566
  local P=25566; begin "$1"; port_free $P
  nmpd status $P 40
  cap_start "$PCAP" "port $P"
  "${@:2}"
  cap_stop; srv_stop $NMP_PID; finish
}
t_slp_status_msu()       { slp_one slp-status-msu       nodec msu-status 25566; }
t_slp_status_mcutil()    { slp_one slp-status-mcutil    mcutil status $H 25566; }
t_slp_status_gamedig()   { slp_one slp-status-gamedig   nodec gamedig 25566; }
t_slp_status_nmp()       { slp_one slp-status-nmp       nodec nmp-ping 25566; }
t_slp_status_craftping() { slp_one slp-status-craftping nodec craftping-status 25566; }

t_slp_status_gomc() { # go-mc's server answering status; msu, mcutil, nmp ping, then a legacy FE 01 it does not understand
  local P=25567; begin slp-status-gomc; port_free $P
  "$BIN/gomc-status-server" -listen "$H:$P" -lifetime 40s 2>>"$LOG.server" & local G=$!; srv_wait_tcp $P
  cap_start "$PCAP" "port $P"
  nodec msu-status $P
  mcutil status $H $P
  nodec nmp-ping $P
  nodec msu-status-legacy $P
  cap_stop; srv_stop $G; finish
}

t_slp_legacy() { # every legacy ping variant the clients have, against minecraft-protocol
  local P=25568; begin slp-legacy; port_free $P
  nmpd status $P 60
  cap_start "$PCAP" "port $P"
  nodec msu-status-fe $P            # FE
  nodec msu-status-fe01 $P          # FE 01
  nodec msu-status-fe01fa $P        # FE 01 FA MC|PingHost
  nodec msu-status-legacy $P        # FE 01 (the non-deprecated API)
  mcutil legacy $H $P               # FE 01
  nodec craftping-legacy-pre14 $P   # FE
  nodec craftping-legacy-post14 $P  # FE 01, then FA MC|PingHost in a second write
  nodec craftping-legacy-universal $P
  cap_stop; srv_stop $NMP_PID; finish
}

t_login_offline() { # offline-mode login, compression threshold 256, join game, client leaves
  local P=25569; begin login-offline; port_free $P
  nmpd login-offline $P 30
  cap_start "$PCAP" "port $P"
  nodec nmp-login $P
  cap_stop; srv_stop $NMP_PID; finish
}

t_login_online() { # online-mode server: Encryption Request/Response, then the session check fails locally
  local P=25570; begin login-online; port_free $P
  nmpd login-online $P 30
  cap_start "$PCAP" "port $P"
  nodec nmp-login $P
  cap_stop; srv_stop $NMP_PID; finish
}

t_slp_status_concurrent() { # 50 concurrent status pings from msu, then 50 from mcutil
  local P=25571; begin slp-status-concurrent; port_free $P
  nmpd status $P 60
  cap_start "$PCAP" "port $P"
  nodec msu-status-many $P 50
  mcutil -n 50 status $H $P
  cap_stop; srv_stop $NMP_PID; finish
}

slp_losses() { # NAME PORT: 50 nmp pings and 50 mcutil pings at once; tcpdump with the smallest ring, stopped and continued meanwhile, so the kernel drops packets
  local P=$2; begin "$1"; port_free $P
  nmpd status-log $P 60
  cap_start "$PCAP" "port $P" ${MCD_CAP_OPTS:--s 4096 -B 1}
  ( LOG="$LOG.nmp"; nodec nmp-ping-many $P 50 ) &
  local C1=$!
  in_status 1 # Node takes a while to start: the Go pings start with the first Node one
  ( LOG="$LOG.mcutil"; mcutil -n 50 status $H $P ) &
  local C2=$!
  local stop="${MCD_STOP_S:-0.1}" run="${MCD_RUN_S:-0.03}" n=0
  while kill -0 $C1 2>/dev/null || kill -0 $C2 2>/dev/null; do stall "$CAP_PID" 1 "$stop" "$run"; n=$((n + 1)); done
  echo "## tcpdump ${MCD_CAP_OPTS:--s 4096 -B 1} was stopped $n times for ${stop} s, running ${run} s in between, until both clients had finished" >>"$LOG"
  wait $C1 $C2 || true
  cat "$LOG.nmp" "$LOG.mcutil" >>"$LOG"; rm -f "$LOG.nmp" "$LOG.mcutil"
  cap_stop; srv_stop $NMP_PID; finish
}
t_slp_status_losses() { slp_losses slp-status-losses 25565; }                     # the default port, where a server is busiest
t_slp_status_losses_heuristic() { slp_losses slp-status-losses-heuristic 25572; } # a port that is not SLP's: the protocol is recognised from the bytes

t_slp_status_midstream() { # a capture that starts while 50 nmp + 30 mcutil pings wait for their status response: no SYN, handshake or request captured
  local P=25573; begin slp-status-midstream; port_free $P
  nmpd status-hold $P 60 # answers no status request until SIGUSR1
  ( LOG="$LOG.nmp"; nodec nmp-ping-many $P 50 ) &
  local C1=$!
  in_status 50
  ( LOG="$LOG.mcutil"; mcutil -n 30 status $H $P ) &
  local C2=$!
  in_status 80
  echo "## capture started after $(grep -c -- '-> status' "$LOG.server") connections were in the status state, waiting for their response" >>"$LOG"
  cap_start "$PCAP" "port $P"
  kill -USR1 $NMP_PID # the server answers them all now
  wait $C1 $C2 || true
  cat "$LOG.nmp" "$LOG.mcutil" >>"$LOG"; rm -f "$LOG.nmp" "$LOG.mcutil"
  cap_stop; srv_stop $NMP_PID; finish
}

t_slp_play_midstream() { # a capture that starts while 3 nmp clients are logged in (play state, compressed framing): keep-alives, then they leave
  local P=25565; begin slp-play-midstream; port_free $P
  nmpd login-offline $P 150
  # not nodec: logging in three clients takes a loaded machine more than nodec's 30 s
  ( echo "## node client.js nmp-login-many $P 3"; cd "$NODE_DIR" && timeout 120 node --no-deprecation client.js nmp-login-many $H $P 3 ) >"$LOG.nmp" 2>&1 &
  local C1=$!
  for _ in $(seq 1800); do [ "$(grep -c playerJoin "$LOG.server" 2>/dev/null)" -ge 3 ] && break; sleep 0.05; done
  echo "## capture started after $(grep -c playerJoin "$LOG.server") clients had joined" >>"$LOG"
  cap_start "$PCAP" "port $P"
  wait $C1 || true
  cat "$LOG.nmp" >>"$LOG"; rm -f "$LOG.nmp"
  cap_stop; srv_stop $NMP_PID; finish
}

# play_one NAME VERSION PORT CLIENT [online]: minecraft-protocol's server (gen/play/server.js) in
# the play state at VERSION; CLIENT is "mineflayer" (gen/play/bot.js) or "gomc" (go-mc's bot,
# gen/go/cmd/gomc-bot). The bot joins, chats, sends four positions and is kicked. "online":
# encrypted, the session check answered by the server script's local stand-in; the bot logs
# the shared secret (samples/NAME.keylog) and the server writes its RSA key (samples/NAME.key.pem).
play_one() {
  local N=$1 V=$2 P=$3 CL=$4 MODE=${5:-offline}; begin "$N"; port_free $P
  [ "$MODE" = online ] && port_free 443
  (cd "$PLAY_DIR" && MCD_SERVER_KEY="$SAMPLES/$N.key.pem" exec node server.js "$V" "$P" 40 "$MODE") 2>>"$LOG.server" &
  local S=$!; srv_wait_tcp $P
  cap_start "$PCAP" "port $P"
  case "$CL" in
    mineflayer) echo "## node bot.js $V $P" >>"$LOG"; (cd "$PLAY_DIR" && timeout 30 node --no-deprecation bot.js "$V" "$P") >>"$LOG" 2>&1 || echo "(exit $?)" >>"$LOG" ;;
    gomc) echo "## gomc-bot -addr $H:$P" >>"$LOG"; timeout 30 "$BIN/gomc-bot" -addr "$H:$P" >>"$LOG" 2>&1 || echo "(exit $?)" >>"$LOG" ;;
  esac
  cap_stop; srv_stop $S
  if [ "$MODE" = online ]; then
    grep -o 'MC_SHARED_SECRET [0-9a-f]* [0-9a-f]*' "$LOG" >"$SAMPLES/$N.keylog"
    chown --reference="$SAMPLES" "$SAMPLES/$N.keylog" "$SAMPLES/$N.key.pem" 2>/dev/null || true
  fi
  finish
}
t_play_1_8_8()        { play_one play-1-8-8        1.8.8   25601 mineflayer; }
t_play_1_12_2()       { play_one play-1-12-2       1.12.2  25602 mineflayer; }
t_play_1_16_5()       { play_one play-1-16-5       1.16.5  25603 mineflayer; }
t_play_1_20_4()       { play_one play-1-20-4       1.20.4  25604 mineflayer; }
t_play_1_21_4()       { play_one play-1-21-4       1.21.4  25605 mineflayer; }
t_play_1_21_11()      { play_one play-1-21-11      1.21.11 25606 mineflayer; }
t_play_gomc_1_20_2()  { play_one play-gomc-1-20-2  1.20.2  25607 gomc; }
t_play_online_1_20_4() { play_one play-online-1-20-4 1.20.4 25608 mineflayer online; }
t_play_1_21_4_threshold0() { MCD_THRESHOLD=0 play_one play-1-21-4-threshold0 1.21.4 25609 mineflayer; }
# samples/large/: too large a tree for a golden file (golden.TestLargeSamples reads it)
t_play_1_20_4_recipes() { mkdir -p "$SAMPLES/large"; MCD_RECIPES=1 play_one large/play-1-20-4-recipes 1.20.4 25610 mineflayer; }

# ------------------------------------------------ outcomes (issue 29): run in a network namespace of their own
# in_netns TARGET: runs this script's TARGET in a new network namespace whose only interface is a
# loopback (plus, for the unreachable host, a route to 192.0.2.0/24 into it: nothing answers there).
# Nothing the peers send can leave the machine, and nothing else on the host is captured.
in_netns() {
  MCD_NETNS=1 MCD_BIN="$BIN" unshare -n bash "$GEN/capture.sh" "$1"
}
netns_up() {
  ip link set lo up
  ip route add 192.0.2.0/24 dev lo src 127.0.0.1 # a host that does not exist: SYNs and datagrams get no answer at all
}

t_slp_msh() { # msh 2.5.0 (MSH_BIN) hibernating a server, on TCP and UDP 25565: status answered before the request, pings it closes on, Query
  [ -n "${MCD_NETNS:-}" ] || { in_netns slp-msh; return; }
  netns_up
  local P=25565; begin slp-msh
  [ -x "${MSH_BIN:-}" ] || { log "MSH_BIN must be msh v2.5.0 (github.com/gekware/minecraft-server-hibernation at b8b88c2, go build -mod=vendor)"; exit 1; }
  local D; D="$(mktemp -d)"; mkdir "$D/server" "$D/run"
  : >"$D/server/server.jar" # never started: msh only starts it for a player who joins
  printf 'eula=true\n' >"$D/server/eula.txt"
  printf 'server-port=25581\nquery.port=25581\nenable-query=true\n' >"$D/server/server.properties"
  cp "$(dirname "$MSH_BIN")/msh-config.json" "$D/run/" 2>/dev/null || true
  cap_start "$PCAP" "port $P or icmp or icmp6"
  (cd "$D/run" && exec timeout 120 "$MSH_BIN" -folder "$D/server" -file server.jar -host $H -port $P -portquery $P -notifyupd=false -notifymes=false -d 3) >>"$LOG.server" 2>&1 &
  local M=$!; srv_wait_tcp $P
  nodec msu-status $P                 # msh sends the status when the handshake says "status", before the request
  nodec craftping-status $P           # its ping payload is the time: msh reads it as an unknown ping and closes
  nodec nmp-ping $P                   # payload 0: msh answers that ping
  mcutil status $H $P                 # a random payload: closed
  mcutil -n 20 status $H $P           # 20 at once
  nodec gamedig $P                    # TCP status, Query and a RakNet ping on the same port number
  nodec msu-query-basic $P
  nodec msu-query-full $P
  sleep 6 # past the Query and RakNet windows: a capture's time is its packets', so one more
  nodec msu-query-basic $P # exchange shows that the window passed
  cap_stop; srv_stop $M; rm -rf "$D"; finish
}

t_slp_status_unanswered() { # minecraft-protocol holding its status answers: msu and nmp's ping give up, and close
  [ -n "${MCD_NETNS:-}" ] || { in_netns slp-status-unanswered; return; }
  netns_up
  local P=25565; begin slp-status-unanswered
  nmpd status-hold $P 30
  cap_start "$PCAP" "port $P"
  nodec msu-status $P                 # gives up after its 5 s timeout
  nodec nmp-ping $P                   # closeTimeout 5000
  cap_stop; srv_stop $NMP_PID; finish
}

t_outcomes_unreachable() { # nothing listens on 127.0.0.1:25565 (the kernel answers: RST, ICMP port unreachable); 192.0.2.1 does not exist (nothing answers)
  [ -n "${MCD_NETNS:-}" ] || { in_netns outcomes-unreachable; return; }
  netns_up
  local P=25565; begin outcomes-unreachable
  cap_start "$PCAP" "port $P or icmp or icmp6"
  nodec msu-status $P; mcutil status $H $P; nodec nmp-ping $P              # TCP: RST
  nodec msu-query-basic $P; mcutil query-basic $H $P; nodec craftping-query-basic $P  # UDP: ICMP port unreachable
  nodec gamedig $P                                                         # all three at once
  nodeh msu-status 192.0.2.1 $P                                            # SYN after SYN, never answered
  nodeh msu-query-basic 192.0.2.1 $P                                       # a Query never answered
  sleep 6 # past the SYN and Query windows: a capture's time is its packets', so one more
  nodec msu-query-basic $P # request shows that the windows passed
  cap_stop; finish
}

ALL="query_clients query_gamedig query_25565 query_full_300players slp_status_msu slp_status_mcutil slp_status_gamedig slp_status_nmp slp_status_craftping slp_status_gomc slp_legacy login_offline login_online slp_status_concurrent slp_status_losses slp_status_losses_heuristic slp_status_midstream slp_play_midstream play_1_8_8 play_1_12_2 play_1_16_5 play_1_20_4 play_1_21_4 play_1_21_11 play_gomc_1_20_2 play_online_1_20_4 play_1_21_4_threshold0 play_1_20_4_recipes slp_msh slp_status_unanswered outcomes_unreachable"

[ $# -gt 0 ] || set -- list
if [ "$1" = list ]; then echo $ALL | tr ' ' '\n' | tr _ -; exit 0; fi
[ "$1" = all ] && set -- $ALL
setup
cleanup() {
  [ -n "$CAP_PID" ] && kill -CONT "$CAP_PID" 2>/dev/null && kill -INT "$CAP_PID" 2>/dev/null
  [ -z "${MCD_BIN:-}" ] && [ -n "$BIN" ] && rm -rf "$BIN"
  true
}
trap cleanup EXIT
for t in "$@"; do "t_${t//-/_}"; done
