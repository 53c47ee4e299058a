#!/usr/bin/env bash
# compare.sh: the measurement of issues 5 and 12. Builds mcdissect, the
# floor loop (bench/floor) and the capture generator (cmd/mcgen), generates
# one capture per mix and size, runs the floor, mcdissect (summary, -V,
# -T json, -T fields) and tshark (when installed) alternately N times each,
# and prints a markdown table per capture: median wall time, median CPU time
# (user + system), MB/s, peak RSS, the ratios, and the targets.
#
#   bench/compare.sh                               # every mix at 100 MB, N=3
#   MIXES=project SIZES="100 1000" bench/compare.sh  # the project's mix, and 1 GB
#   BASE=/tmp/mcdissect-old TSHARK=0 N=7 bench/compare.sh  # a change, against the old binary
#
# Environment:
#   MIXES      mcgen workloads (default "project slp query classic-big onebyte
#              play real": see internal/mcgen ApplyMix; "real" is
#              bench/realmix's replay of the real captures in samples/); a
#              target must hold on every one
#   BASE       a baseline mcdissect binary: each of its modes runs right after
#              the same mode of the new one, in every round, and the table
#              adds the base's CPU time and the paired median of new ÷ base
#   SIZES      capture sizes in MB (default "100")
#   N          runs of each command (default 3; the median is reported)
#   SEED       mcgen seed (default 1)
#   TSHARK     0 to skip tshark even when installed (default 1)
#   OUT        working directory (default bench/out, git-ignored)
#   REDACT     1 to run summary, -V and -T json of the new binary with --redact
#              too, each right after its run without (rows "… --redact")
#
# Wall time, CPU time and peak RSS come from GNU time (/usr/bin/time -f '%e %M %U %S';
# Debian/Ubuntu: apt-get install -y time). Output goes to /dev/null.
# tshark has no Minecraft dissector: its figures are the cost of its own
# pass over the same file (Ethernet/IP/TCP/UDP with TCP analysis), which is
# what a user who has only tshark pays.
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=${OUT:-bench/out}
SIZES=${SIZES:-100}
MIXES=${MIXES:-project slp query classic-big onebyte play real}
BASE=${BASE:-}
REDACT=${REDACT:-0}
N=${N:-3}
SEED=${SEED:-1}
TSHARK=${TSHARK:-1}
TIME=/usr/bin/time
mkdir -p "$OUT"

if ! [ -x "$TIME" ] || ! "$TIME" -f '%e %M' true >/dev/null 2>&1; then
	echo "compare.sh: GNU time is needed at $TIME (apt-get install -y time)" >&2
	exit 1
fi
have_tshark=0
if [ "$TSHARK" != 0 ] && command -v tshark >/dev/null 2>&1; then
	have_tshark=1
fi

echo "building mcdissect, floor, mcgen..." >&2
go build -o "$OUT/mcdissect" ./cmd/mcdissect
go build -o "$OUT/floor" ./bench/floor
go build -o "$OUT/mcgen" ./cmd/mcgen
go build -o "$OUT/realmix" ./bench/realmix

# The machine.
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || true)
mem=$(awk '/MemTotal/ {printf "%.1f GB", $2/1048576}' /proc/meminfo 2>/dev/null || true)
tsv="not installed"
if [ "$have_tshark" = 1 ]; then
	tsv=$(tshark --version 2>/dev/null | head -1)
elif command -v tshark >/dev/null 2>&1; then
	tsv="skipped (TSHARK=0)"
fi
echo "## Machine"
echo
echo "- CPUs: $(nproc) × ${cpu:-unknown}, memory ${mem:-unknown}, kernel $(uname -r)"
echo "- $(go version)"
echo "- tshark: $tsv"
echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "$BASE" ] && echo "- base: $BASE ($(sha256sum "$BASE" | cut -c1-12))"
echo "- mcdissect at $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- 2>/dev/null || echo ' + uncommitted changes'); N=$N runs each, medians"
echo

# run NAME FILE CMD...: one timed run; appends "name size secs rssKB status cpusecs".
run() {
	local name=$1 size=$2
	shift 2
	local tf="$OUT/.time" st=0
	"$TIME" -f '%e %M %U %S' -o "$tf" "$@" >/dev/null 2>"$OUT/.stderr" || st=$?
	local t rss u sy
	read -r t rss u sy < <(tail -1 "$tf")
	if [ "$st" != 0 ]; then
		echo "compare.sh: $name failed (exit $st): $(head -c 300 "$OUT/.stderr")" >&2
	fi
	echo "$name $size $t $rss $st $(echo "$u $sy" | awk '{print $1 + $2}')" >>"$results"
	printf '  %-16s %6.2fs %7.1f MB  %s\n' "$name" "$t" "$(echo "$rss" | awk '{print $1/1024}')" "$([ "$st" = 0 ] && echo ok || echo "FAILED ($st)")" >&2
}

results="$OUT/results.txt"
: >"$results"
for mix in $MIXES; do
for size in $SIZES; do
	f="$OUT/mc-$mix-${size}MB-seed$SEED.pcap"
	gen="$OUT/mcgen"
	[ "$mix" = real ] && gen="$OUT/realmix"
	stamp=$(sha256sum "$gen" | cut -c1-16)
	if [ -L "$f" ] && [ "$(cat "$f.stamp" 2>/dev/null)" != "$stamp" ]; then
		# OUT links to a capture another run made: regenerating it would
		# write through the link into that run's directory.
		echo "compare.sh: $f links to a capture made by another generator (stamp differs): remove the link or regenerate it where it lives" >&2
		exit 1
	fi
	if ! [ -f "$f" ] || [ "$(cat "$f.stamp" 2>/dev/null)" != "$stamp" ]; then
		echo "generating $f..." >&2
		if [ "$mix" = real ]; then
			# The real samples replayed (bench/realmix): traffic this
			# project's generator did not write.
			"$OUT/realmix" -o "$f" -size "${size}MB" -seed "$SEED" $(ls samples/*.pcap | grep -v /handmade-)
		else
			"$OUT/mcgen" -o "$f" -size "${size}MB" -seed "$SEED" -mix "$mix"
		fi
		echo "$stamp" >"$f.stamp"
	fi
	bytes=$(stat -L -c %s "$f")
	c="$mix:$size"
	for i in $(seq "$N"); do
		echo "$f, round $i of $N:" >&2
		run floor "$c" "$OUT/floor" -r "$f"
		# Each mode of the new binary, then the base's (BASE), side by
		# side in time: a pair shares the host's state of the moment.
		for mode in summary V json ek fields; do
			for bin in "$OUT/mcdissect" ${BASE:+"$BASE"}; do
				name=$mode
				[ "$bin" = "$BASE" ] && name=base-$mode
				case $mode in
				summary) run "$name" "$c" "$bin" -r "$f" ;;
				V) run "$name" "$c" "$bin" -r "$f" -V ;;
				json) run "$name" "$c" "$bin" -r "$f" -T json ;;
				ek) run "$name" "$c" "$bin" -r "$f" -T ek ;;
				fields) run "$name" "$c" "$bin" -r "$f" -T fields -e frame.number -e mc.protocol -e mc.message -e ip.src -e tcp.stream ;;
				esac
			done
			# REDACT: the same mode with --redact, next in time too.
			if [ "$REDACT" = 1 ]; then
				case $mode in
				summary) run summary-redact "$c" "$OUT/mcdissect" -r "$f" --redact ;;
				V) run V-redact "$c" "$OUT/mcdissect" -r "$f" -V --redact ;;
				json) run json-redact "$c" "$OUT/mcdissect" -r "$f" -T json --redact ;;
				esac
			fi
		done
		if [ "$have_tshark" = 1 ]; then
			run tshark "$c" tshark -r "$f"
			run tshark-V "$c" tshark -r "$f" -V
			run tshark-json "$c" tshark -r "$f" -T json
		fi
	done
	echo "size $c $bytes" >>"$results"
done
done

# The table. Medians of the wall times, the highest RSS of the runs.
awk -v have_tshark="$have_tshark" '
function minimum(list,   a, n, i, m) {
	n = split(list, a, " ")
	m = a[1]
	for (i = 2; i <= n; i++) if (a[i] + 0 < m + 0) m = a[i]
	return m
}
# paired: the median over rounds of a[i] / b[i], the lists in round order.
function paired(la, lb,   a, b, n, i, r) {
	n = split(la, a, " "); split(lb, b, " ")
	r = ""
	for (i = 1; i <= n; i++) if (b[i] > 0) r = r " " a[i] / b[i]
	return r == "" ? 0 : median(r)
}
function median(list,   a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j+1] = a[j]; a[j+1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
$1 == "size" { bytes[$2] = $3; next }
{
	k = $2 SUBSEP $1
	if (!(k in times)) { order[$2] = order[$2] " " $1 }
	if (!($2 in seen)) { seen[$2] = 1; cases[++ncases] = $2 }
	times[k] = times[k] " " $3
	cpus[k] = cpus[k] " " $6
	if ($4 > rss[k]) rss[k] = $4
	if ($5 != 0) failed[k] = 1
}
END {
	label["floor"] = "floor (pcapgo + DecodingLayerParser + reassembly)"
	label["summary"] = "mcdissect -r F"
	label["V"] = "mcdissect -r F -V"
	label["json"] = "mcdissect -r F -T json"
	label["ek"] = "mcdissect -r F -T ek"
	label["fields"] = "mcdissect -r F -T fields (5 fields)"
	label["summary-redact"] = "mcdissect -r F --redact"
	label["V-redact"] = "mcdissect -r F -V --redact"
	label["json-redact"] = "mcdissect -r F -T json --redact"
	label["tshark"] = "tshark -r F"
	label["tshark-V"] = "tshark -r F -V"
	label["tshark-json"] = "tshark -r F -T json"
	peer["summary"] = "tshark"; peer["V"] = "tshark-V"; peer["json"] = "tshark-json"
	# issue 12: ratios to the floor measured in the same run, on every mix
	limit["summary"] = 1.5; limit["V"] = 4; limit["json"] = 4.5; limit["fields"] = 3
	for (si = 1; si <= ncases; si++) {
		s = cases[si]
		split(s, mixsize, ":")
		mb = bytes[s] / 1e6
		printf "## mix %s, %d MB capture (%d bytes)\n\n", mixsize[1], mixsize[2], bytes[s]
		print "| run | median s | min s | CPU s | MB/s | peak RSS MB | × floor | tshark ÷ mcdissect | base CPU s | new ÷ base (CPU, paired) | base peak RSS MB | target | met |"
		print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
		fl = median(times[s SUBSEP "floor"])
		n = split(order[s], names, " ")
		for (i = 1; i <= n; i++) {
			r = names[i]; k = s SUBSEP r
			if (r ~ /^base-/) continue
			bk = s SUBSEP "base-" r
			bcpu = "–"; bratio = "–"; brss = "–"
			if (bk in cpus) {
				bcpu = sprintf("%.2f", median(cpus[bk]))
				bratio = sprintf("%.3f", paired(cpus[k], cpus[bk]))
				brss = sprintf("%.1f", rss[bk] / 1024)
			}
			m = median(times[k])
			ratio = fl > 0 ? sprintf("%.2f", m / fl) : "–"
			vs = "–"; target = ""; met = ""
			if (r in peer) {
				pk = s SUBSEP peer[r]
				if (pk in times) {
					pm = median(times[pk])
					vs = m > 0 ? sprintf("%.1f×", pm / m) : "∞"
				}
			}
			ok = 1; parts = ""
			if (r in limit) {
				target = sprintf("≤ %s× floor", limit[r])
				ok = (m <= limit[r] * fl)
			} else if (r == "ek") {
				target = "no slower than -T json"
				ok = (m <= median(times[s SUBSEP "json"]))
			} else {
				ok = -1
			}
			if (r in limit) {
				rt = "RSS ≤ 100 MB" (mixsize[2] >= 1000 ? "" : " (1 GB target)")
				target = target "; " rt
				if (ok != -1) ok = ok && (rss[k] / 1024 <= 100)
				else if (rss[k] / 1024 > 100) ok = 0
			}
			if (k in failed) { met = "FAILED (exit status)" }
			else if (ok == -1) { met = (target == "" ? "" : "–") }
			else { met = ok ? "met" : "**not met**" }
			printf "| %s | %.2f | %.2f | %.2f | %.0f | %.1f | %s | %s | %s | %s | %s | %s | %s |\n", label[r], m, minimum(times[k]), median(cpus[k]), (m > 0 ? mb / m : 0), rss[k] / 1024, ratio, vs, bcpu, bratio, brss, target, met
		}
		print ""
	}
	if (!have_tshark) print "tshark is not installed (or TSHARK=0): the tshark targets were not checked.\n"
	print "tshark has no Minecraft dissector; its rows are the cost of its own pass over the same file."
	print "Targets are judged on the medians (and the medians of the floor and tshark); the minimum shows"
	print "what a run gets when the neighbours on the host are quiet; CPU s (user + system, median) moves"
	print "less with them than wall time does, and shows how much of the two cores a run keeps busy."
}' "$results"
