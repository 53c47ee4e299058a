#!/usr/bin/env bash
# memory.sh: the measurement of issue 11 (bounded memory for any input).
# Builds mcdissect and the hostile-capture generator
# (internal/capgen/hostilegen), writes each hostile input the issue lists,
# runs every output mode on each under GNU time, and prints a markdown
# table of peak RSS in MB per input and mode. Exits 1 if any run exceeds
# LIMIT MB or fails.
#
#   bench/memory.sh                      # every input, every mode
#   INPUTS="partial favicon" MODES="json ek" bench/memory.sh
#
# Environment:
#   INPUTS  inputs to run (default all, in the order of the table below)
#   MODES   output modes to run (default all: summary V x json ek fields
#           html conv)
#   LIMIT   peak RSS in MB that fails the run (default 200)
#   OUT     working directory (default bench/out, git-ignored); the
#           captures are kept there and reused when already written
#
# Inputs (hostilegen kind and scale):
#   synack   250,000 connections seen only by their SYN+ACK
#   syn      100,000 bare SYNs
#   onebyte  a 2 MB status response sent one byte per segment
#   favicon  a status response with a 30 MB favicon
#   garbage  a 63 MB stream on 25565 that is no protocol
#   partial  200 connections each leaving a 2 MB PDU unfinished (420 MB)
#   held     150 status responses of 2 MB behind a request never answered
#            (315 MB): every record waits behind the request
#
# Peak RSS is GNU time's %M (Debian/Ubuntu: apt-get install -y time).
# Output goes to /dev/null.
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=${OUT:-bench/out}
LIMIT=${LIMIT:-200}
INPUTS=${INPUTS:-synack syn onebyte favicon garbage partial held}
MODES=${MODES:-summary V x json ek fields html conv}
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
	*)
		echo "memory.sh: unknown input $1" >&2
		exit 2
		;;
	esac
}

# flags MODE: mcdissect's flags for an output mode.
flags() {
	case $1 in
	summary) echo "" ;;
	V) echo "-V" ;;
	x) echo "-x" ;;
	json) echo "-T json" ;;
	ek) echo "-T ek" ;;
	fields) echo "-T fields -e frame.number -e tcp.stream -e mc.message -e slp.status.json -e mc.undissected" ;;
	html) echo "-T html" ;;
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

fail=0
header="| input | MB |"
rule="|---|---:|"
for m in $MODES; do
	header="$header $m |"
	rule="$rule---:|"
done
rows=()
for in in $INPUTS; do
	f="$OUT/mem-$in.pcap"
	size=$(($(stat -L -c %s "$f") / 1000000))
	row="| $in | $size |"
	for m in $MODES; do
		log="$OUT/mem-$in-$m.time"
		# shellcheck disable=SC2046
		if "$TIME" -o "$log" -f '%M' "$OUT/mcdissect" -r "$f" $(flags "$m") >/dev/null 2>"$OUT/mem-$in-$m.err"; then
			kb=$(tail -1 "$log")
			mb=$(((kb + 512) / 1024))
			cell=$mb
			if [ "$mb" -gt "$LIMIT" ]; then
				cell="**$mb**"
				fail=1
			fi
		else
			cell="failed"
			fail=1
			echo "memory.sh: $in $m failed: $(tail -3 "$OUT/mem-$in-$m.err")" >&2
		fi
		echo "$in $m: $cell MB" >&2
		row="$row $cell |"
	done
	rows+=("$row")
done

echo "peak RSS in MB (GNU time %M), limit $LIMIT MB, $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo
echo "$header"
echo "$rule"
for r in "${rows[@]}"; do
	echo "$r"
done
if [ "$fail" != 0 ]; then
	echo "memory.sh: a run exceeded $LIMIT MB or failed" >&2
	exit 1
fi
