#!/usr/bin/env bash
# memory.sh: bounded memory and linear cost on hostile inputs (issues 11
# and 28). Builds mcdissect and the hostile-capture generator
# (internal/capgen/hostilegen), writes each hostile input, runs every
# output mode on each under GNU time, twice: as it is, and with the
# collector off (GOGC=off, GOMEMLIMIT=$NOGC_LIMIT: mcdissect's own soft
# limit is then not set, and the heap may grow to that), and prints three
# markdown tables: peak RSS in MB, CPU seconds (user + system), and CPU
# seconds with the collector off. A run that takes more than twice its
# time without the collector is thrashing it: its cell is marked "!". A
# peak over LIMIT MB is in bold. Exits 1 if any run exceeds LIMIT or fails.
#
#   bench/memory.sh                            # every input, every mode
#   INPUTS="levels idents" MODES="V html" bench/memory.sh
#   REUSE=1 bench/memory.sh                    # print the tables of the last runs
#
# Environment:
#   INPUTS      inputs to run (default all, in the order below)
#   MODES       output modes (default: summary V x json ek fields html
#               pdml export 2 Y redact; conv is there too)
#   LIMIT       peak RSS in MB that fails the run (default 150)
#   NOGC        0: skip the runs with the collector off
#   NOGC_LIMIT  GOMEMLIMIT of those runs (default 3GiB): past it the
#               collector runs after all, rather than the host running out
#   TIMEOUT     seconds a run may take (default 900); "timeout" in its cell
#   REUSE       1: keep the results of runs already made (OUT/*.time)
#   OUT         working directory (default bench/out, git-ignored); the
#               captures are kept there and reused when already written
#
# Inputs (hostilegen kind and scale; `hostilegen list` says what N is):
#   synack     250,000 connections seen only by their SYN+ACK
#   syn        100,000 bare SYNs
#   onebyte    a 2 MB status response sent one byte per segment
#   favicon    a status response with a 30 MB favicon
#   garbage    a 63 MB stream on 25565 that is no protocol
#   partial    200 connections each leaving a 2 MB PDU unfinished
#   held       150 status responses of 2 MB behind a request never answered
#   fraglists  2,000 IPv4 datagrams of 64 KB, every fragment but the last
#   frags      70,000 IPv4 datagrams of which only the first fragment came
#   ip6frag    1,000 Query full stats and SLP handshakes in IPv6 fragments
#   ip6ext     1,000 of each behind Hop-by-Hop and Destination Options
#   vlan       1,000 of each under 0x9100 and stacked VLAN tags
#   levels     250 Classic connections holding 1 MiB of level, never finalized
#   idents     80,000 Classic connections sending 100 of 131 identification bytes
#   biglevel   one legal 1024x64x1024 level (64 MiB of blocks)
#   fullstat   one Query full stat repeating a key 16,000 times
#   fullstats  50 such full stats (quadratic tree cost shows here)
#   hbparams   heartbeats with 2,000 parameters before the salt
#   hbchunked  chunked heartbeats cut inside the salt
#   copies     the salt and key echoed in other PDUs
#   slpmid     1,000 pings and pongs after a status response picked up mid-way
#   hbnosyn    a heartbeat captured without its SYN
#   linesep    U+2028 and U+2029 in every text a peer controls
#   playbombs  500 compressed play packets inflating 1000:1 (1.20.4, 1.8)
#   playcounts 20,000 play sessions whose counts and lengths say 2^31-1
#   playnbt    4,000 play sessions with NBT nested 511 to 100,000 deep
#   playpartial 100 connections in play each leaving 1.5 MB unfinished
#   playcrypt  1,000 encrypted logins, no key, 32 KB each way, all open
#
# Peak RSS is GNU time's %M (Debian/Ubuntu: apt-get install -y time).
# Output goes to /dev/null. Say the load average beside the numbers.
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=${OUT:-bench/out}
LIMIT=${LIMIT:-150}
NOGC=${NOGC:-1}
NOGC_LIMIT=${NOGC_LIMIT:-3GiB}
TIMEOUT=${TIMEOUT:-900}
REUSE=${REUSE:-0}
INPUTS=${INPUTS:-synack syn onebyte favicon garbage partial held fraglists frags ip6frag ip6ext vlan levels idents biglevel fullstat fullstats hbparams hbchunked copies slpmid hbnosyn linesep playbombs playcounts playnbt playpartial playcrypt}
MODES=${MODES:-summary V x json ek fields html pdml export 2 Y redact}
TIME=/usr/bin/time
mkdir -p "$OUT"

if ! [ -x "$TIME" ] || ! "$TIME" -f '%M' true >/dev/null 2>&1; then
	echo "memory.sh: GNU time is needed at $TIME (apt-get install -y time)" >&2
	exit 1
fi

echo "building mcdissect, hostilegen..." >&2
go build -o "$OUT/mcdissect" ./cmd/mcdissect
go build -o "$OUT/hostilegen" ./internal/capgen/hostilegen

# gen INPUT: the hostilegen arguments of an input.
gen() {
	case $1 in
	synack) echo "synack 250000" ;;
	syn) echo "syn 100000" ;;
	onebyte) echo "onebyte 2000000" ;;
	favicon) echo "favicon 30000000" ;;
	garbage) echo "garbage 63000000" ;;
	partial) echo "partial 200" ;;
	held) echo "held 150" ;;
	fraglists) echo "fraglists 2000" ;;
	frags) echo "frags 70000" ;;
	ip6frag) echo "ip6frag 1000" ;;
	ip6ext) echo "ip6ext 1000" ;;
	vlan) echo "vlan 1000" ;;
	levels) echo "levels 250" ;;
	idents) echo "idents 80000" ;;
	biglevel) echo "biglevel 0" ;;
	fullstat) echo "fullstat 16000" ;;
	fullstats) echo "fullstats 50" ;;
	hbparams) echo "hbparams 2000" ;;
	hbchunked) echo "hbchunked 0" ;;
	copies) echo "copies 0" ;;
	slpmid) echo "slpmid 1000" ;;
	hbnosyn) echo "hbnosyn 0" ;;
	linesep) echo "linesep 0" ;;
	playbombs) echo "playbombs 500" ;;
	playcounts) echo "playcounts 20000" ;;
	playnbt) echo "playnbt 4000" ;;
	playpartial) echo "playpartial 100" ;;
	playcrypt) echo "playcrypt 1000" ;;
	*)
		echo "memory.sh: unknown input $1" >&2
		exit 2
		;;
	esac
}

# flags MODE DIR: mcdissect's flags for an output mode (DIR: a scratch
# directory for exports).
flags() {
	case $1 in
	summary) echo "" ;;
	V) echo "-V" ;;
	x) echo "-x" ;;
	json) echo "-T json" ;;
	ek) echo "-T ek" ;;
	fields) echo "-T fields -e frame.number -e tcp.stream -e mc.message -e slp.status.json -e classic.heartbeat.salt -e mc.undissected" ;;
	html) echo "-T html" ;;
	pdml) echo "-T pdml" ;;
	export) echo "-q --export-objects level,$2" ;;
	2) echo "-2 -V" ;;
	Y) echo "-V -Y classic.packet_id==4||slp.status.json||query.kv||classic.heartbeat" ;;
	redact) echo "-V --redact" ;;
	conv) echo "-q -z conv,tcp" ;;
	*)
		echo "memory.sh: unknown mode $1" >&2
		exit 2
		;;
	esac
}

for in in $INPUTS; do
	f="$OUT/mem-$in.pcap"
	if ! [ -s "$f" ]; then
		echo "writing $f ($(gen "$in"))..." >&2
		# shellcheck disable=SC2046
		"$OUT/hostilegen" $(gen "$in") "$f.tmp"
		mv "$f.tmp" "$f"
	fi
done

# measure IN MODE TAG ENV...: runs one cell, leaving "KB CPU-seconds" (or
# "failed"/"timeout") in $OUT/mem-IN-MODE-TAG.time.
measure() {
	local in=$1 m=$2 tag=$3
	shift 3
	local log="$OUT/mem-$in-$m-$tag.time" f="$OUT/mem-$in.pcap" dir="$OUT/export-$in-$m-$tag"
	if [ "$REUSE" = 1 ] && [ -s "$log" ]; then
		return
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	local rc=0
	# shellcheck disable=SC2046
	env "$@" timeout "$TIMEOUT" "$TIME" -o "$log.raw" -f '%M %U %S' "$OUT/mcdissect" -r "$f" $(flags "$m" "$dir") >/dev/null 2>"$OUT/mem-$in-$m-$tag.err" || rc=$?
	rm -rf "$dir"
	if [ "$rc" = 124 ]; then
		echo "timeout" >"$log"
	elif [ "$rc" != 0 ]; then
		echo "failed" >"$log"
		echo "memory.sh: $in $m ($tag) failed: $(tail -3 "$OUT/mem-$in-$m-$tag.err")" >&2
	else
		tail -1 "$log.raw" | awk '{printf "%d %.2f\n", $1, $2 + $3}' >"$log"
	fi
	rm -f "$log.raw"
}

total=$(($(wc -w <<<"$INPUTS") * $(wc -w <<<"$MODES")))
k=0
for in in $INPUTS; do
	for m in $MODES; do
		k=$((k + 1))
		echo "[$k/$total] $in $m (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
		measure "$in" "$m" gc
		if [ "$NOGC" != 0 ]; then
			measure "$in" "$m" nogc GOGC=off GOMEMLIMIT="$NOGC_LIMIT"
		fi
	done
done

fail=0
header="| input | file MB |"
rule="|---|---:|"
for m in $MODES; do
	header="$header $m |"
	rule="$rule---:|"
done

# table WHAT: one markdown table; WHAT is rss, cpu or nogc.
table() {
	echo "$header"
	echo "$rule"
	for in in $INPUTS; do
		local row size
		size=$((($(stat -L -c %s "$OUT/mem-$in.pcap") + 500000) / 1000000))
		row="| $in | $size |"
		for m in $MODES; do
			local gc nogc cell
			gc=$(cat "$OUT/mem-$in-$m-gc.time" 2>/dev/null || echo "?")
			nogc=$(cat "$OUT/mem-$in-$m-nogc.time" 2>/dev/null || echo "?")
			case $gc in failed | timeout | "?")
				row="$row $gc |"
				continue
				;;
			esac
			read -r kb cpu <<<"$gc"
			case $1 in
			rss)
				cell=$(((kb + 512) / 1024))
				if [ "$cell" -gt "$LIMIT" ]; then
					cell="**$cell**"
				fi
				;;
			cpu)
				cell=$cpu
				case $nogc in failed | timeout | "?") ;;
				*)
					read -r _ off <<<"$nogc"
					if awk -v a="$cpu" -v b="$off" 'BEGIN { exit !(a > 2 * b && a > 0.2) }'; then
						cell="$cell !"
					fi
					;;
				esac
				;;
			nogc)
				case $nogc in failed | timeout | "?") cell=$nogc ;;
				*) read -r _ cell <<<"$nogc" ;;
				esac
				;;
			esac
			row="$row $cell |"
		done
		echo "$row"
	done
}

for in in $INPUTS; do
	for m in $MODES; do
		gc=$(cat "$OUT/mem-$in-$m-gc.time" 2>/dev/null || echo "?")
		case $gc in
		failed | timeout | "?") fail=1 ;;
		*)
			read -r kb _ <<<"$gc"
			if [ $(((kb + 512) / 1024)) -gt "$LIMIT" ]; then
				fail=1
			fi
			;;
		esac
	done
done

rev=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
echo "Peak RSS in MB (GNU time %M), limit $LIMIT MB, at $rev; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
table rss
echo
echo "CPU seconds (user + system); \"!\": more than twice the CPU time of the same run with the collector off"
echo
table cpu
if [ "$NOGC" != 0 ]; then
	echo
	echo "CPU seconds with the collector off (GOGC=off GOMEMLIMIT=$NOGC_LIMIT)"
	echo
	table nogc
fi
if [ "$fail" != 0 ]; then
	echo "memory.sh: a run exceeded $LIMIT MB, failed or timed out" >&2
	exit 1
fi
