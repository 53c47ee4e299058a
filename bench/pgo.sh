#!/usr/bin/env bash
# pgo.sh: makes cmd/mcdissect/default.pgo, the CPU profile that `go build`
# and `go run` use for profile-guided optimization of mcdissect (Go's
# -pgo=auto: inlining and devirtualization where the profile says the time
# goes).
#
#   bench/pgo.sh            # OUT=bench/out, the 100 MB captures compare.sh uses
#
# The profile is of every mix compare.sh runs (MIXES), each in four modes
# (summary, -V, -T json, -T ek), merged: it must not favour one capture.
# What it bought, measured on captures it was not made from (mcgen seed 2,
# median of 5 interleaved runs against the same code without it): summary
# 4-12 % less wall time, -V and JSON 1-5 % (README, "Speed and memory").
# Run it again when the hot paths move; a stale profile only buys less.
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=${OUT:-bench/out}
MIXES=${MIXES:-project slp query classic-big onebyte play real}
SEED=${SEED:-1}
mkdir -p "$OUT/pgo"

go build -pgo=off -o "$OUT/mcdissect-nopgo" ./cmd/mcdissect
go build -o "$OUT/mcgen" ./cmd/mcgen
go build -o "$OUT/realmix" ./bench/realmix

profiles=()
for mix in $MIXES; do
	f="$OUT/mc-$mix-100MB-seed$SEED.pcap"
	if ! [ -f "$f" ]; then
		echo "generating $f..." >&2
		if [ "$mix" = real ]; then
			"$OUT/realmix" -o "$f" -size 100MB -seed "$SEED" $(ls samples/*.pcap | grep -v /handmade-)
		else
			"$OUT/mcgen" -o "$f" -size 100MB -seed "$SEED" -mix "$mix"
		fi
	fi
	for mode in summary V json ek; do
		case $mode in
		summary) args=() ;;
		V) args=(-V) ;;
		json) args=(-T json) ;;
		ek) args=(-T ek) ;;
		esac
		p="$OUT/pgo/$mix-$mode.prof"
		echo "profiling $mix $mode..." >&2
		"$OUT/mcdissect-nopgo" -r "$f" "${args[@]}" --cpuprofile "$p" >/dev/null
		profiles+=("$p")
	done
done
go tool pprof -proto "${profiles[@]}" >cmd/mcdissect/default.pgo
echo "wrote cmd/mcdissect/default.pgo from ${#profiles[@]} profiles" >&2
