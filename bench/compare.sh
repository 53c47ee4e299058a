#!/usr/bin/env bash
# compare.sh: the measurement of issue 5. Builds mcdissect, the floor loop
# (bench/floor) and the capture generator (cmd/mcgen), generates the
# captures, runs the floor, mcdissect (summary, -V, -T json, -T fields) and
# tshark (when installed) alternately N times each, and prints a markdown
# table: median wall time, median CPU time (user + system), MB/s, peak RSS,
# the ratios, and the targets.
#
#   bench/compare.sh                       # 100 MB capture, N=3
#   SIZES="100 1000" bench/compare.sh      # and a 1 GB capture
#
# Environment:
#   SIZES      capture sizes in MB (default "100")
#   N          runs of each command (default 3; the median is reported)
#   SEED       mcgen seed (default 1)
#   TSHARK     0 to skip tshark even when installed (default 1)
#   OUT        working directory (default bench/out, git-ignored)
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
for size in $SIZES; do
	f="$OUT/mc-${size}MB-seed$SEED.pcap"
	stamp=$(sha256sum "$OUT/mcgen" | cut -c1-16)
	if ! [ -f "$f" ] || [ "$(cat "$f.stamp" 2>/dev/null)" != "$stamp" ]; then
		echo "generating $f..." >&2
		"$OUT/mcgen" -o "$f" -size "${size}MB" -seed "$SEED"
		echo "$stamp" >"$f.stamp"
	fi
	bytes=$(stat -c %s "$f")
	for i in $(seq "$N"); do
		echo "$f, round $i of $N:" >&2
		run floor "$size" "$OUT/floor" -r "$f"
		run summary "$size" "$OUT/mcdissect" -r "$f"
		run V "$size" "$OUT/mcdissect" -r "$f" -V
		run json "$size" "$OUT/mcdissect" -r "$f" -T json
		run fields "$size" "$OUT/mcdissect" -r "$f" -T fields -e frame.number -e mc.protocol -e mc.message -e ip.src -e tcp.stream
		if [ "$have_tshark" = 1 ]; then
			run tshark "$size" tshark -r "$f"
			run tshark-V "$size" tshark -r "$f" -V
			run tshark-json "$size" tshark -r "$f" -T json
		fi
	done
	echo "size $size $bytes" >>"$results"
done

# The table. Medians of the wall times, the highest RSS of the runs.
awk -v have_tshark="$have_tshark" '
function minimum(list,   a, n, i, m) {
	n = split(list, a, " ")
	m = a[1]
	for (i = 2; i <= n; i++) if (a[i] + 0 < m + 0) m = a[i]
	return m
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
	times[k] = times[k] " " $3
	cpus[k] = cpus[k] " " $6
	if ($4 > rss[k]) rss[k] = $4
	if ($5 != 0) failed[k] = 1
	sizes[$2] = 1
}
END {
	label["floor"] = "floor (pcapgo + DecodingLayerParser + reassembly)"
	label["summary"] = "mcdissect -r F"
	label["V"] = "mcdissect -r F -V"
	label["json"] = "mcdissect -r F -T json"
	label["fields"] = "mcdissect -r F -T fields (5 fields)"
	label["tshark"] = "tshark -r F"
	label["tshark-V"] = "tshark -r F -V"
	label["tshark-json"] = "tshark -r F -T json"
	peer["summary"] = "tshark"; peer["V"] = "tshark-V"; peer["json"] = "tshark-json"
	need["summary"] = 10; need["V"] = 20; need["json"] = 50
	nsz = 0
	for (s in sizes) sz[++nsz] = s + 0
	for (i = 2; i <= nsz; i++) { t = sz[i]; for (j = i - 1; j >= 1 && sz[j] > t; j--) sz[j+1] = sz[j]; sz[j+1] = t }
	for (si = 1; si <= nsz; si++) {
		s = sz[si]
		mb = bytes[s] / 1e6
		printf "## %d MB capture (%d bytes)\n\n", s, bytes[s]
		print "| run | median s | min s | CPU s | MB/s | peak RSS MB | × floor | tshark ÷ mcdissect | target | met |"
		print "|---|---:|---:|---:|---:|---:|---:|---:|---|---|"
		fl = median(times[s SUBSEP "floor"])
		n = split(order[s], names, " ")
		for (i = 1; i <= n; i++) {
			r = names[i]; k = s SUBSEP r
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
			if (r == "summary") {
				target = "≤ 2× floor; ≥ 10× faster than tshark"
				ok = (m <= 2 * fl)
				if (pk in times) ok = ok && (m > 0 && pm / m >= 10); else target = target " (no tshark)"
			} else if (r == "V" || r == "json") {
				target = sprintf("≥ %d× faster than tshark%s", need[r], r == "V" ? " -V" : " -T json")
				if (pk in times) ok = (m > 0 && pm / m >= need[r]); else { ok = -1; target = target " (no tshark)" }
			} else if (r == "fields") {
				target = "≤ 3× floor"
				ok = (m <= 3 * fl)
			} else {
				ok = -1
			}
			if (r == "summary" || r == "V" || r == "json" || r == "fields") {
				rt = "RSS ≤ 100 MB" (s >= 1000 ? "" : " (1 GB target)")
				target = target "; " rt
				if (ok != -1) ok = ok && (rss[k] / 1024 <= 100)
				else if (rss[k] / 1024 > 100) ok = 0
			}
			if (k in failed) { met = "FAILED (exit status)" }
			else if (ok == -1) { met = (target == "" ? "" : "–") }
			else { met = ok ? "met" : "**not met**" }
			printf "| %s | %.2f | %.2f | %.2f | %.0f | %.1f | %s | %s | %s | %s |\n", label[r], m, minimum(times[k]), median(cpus[k]), (m > 0 ? mb / m : 0), rss[k] / 1024, ratio, vs, target, met
		}
		print ""
	}
	if (!have_tshark) print "tshark is not installed (or TSHARK=0): the tshark targets were not checked.\n"
	print "tshark has no Minecraft dissector; its rows are the cost of its own pass over the same file."
	print "Targets are judged on the medians (and the medians of the floor and tshark); the minimum shows"
	print "what a run gets when the neighbours on the host are quiet; CPU s (user + system, median) moves"
	print "less with them than wall time does, and shows how much of the two cores a run keeps busy."
}' "$results"
