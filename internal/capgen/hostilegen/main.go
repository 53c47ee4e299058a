// Command hostilegen writes one hostile capture (see capgen's hostile*.go)
// at the scale asked, to measure memory and time on the built binary:
//
//	go run ./internal/capgen/hostilegen synack 250000 /tmp/synack.pcap
//	/usr/bin/time -v mcdissect -r /tmp/synack.pcap >/dev/null
//
// `hostilegen list` prints every kind with what N counts. bench/memory.sh
// runs them all in every output mode.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// kind is one hostile capture: what N counts, and how to write it.
type kind struct {
	name, n string
	write   func(w *capgen.Writer, n int)
}

var kinds = []kind{
	{"syn", "bare SYNs", func(w *capgen.Writer, n int) { w.SYNFlood(n, false) }},
	{"synack", "connections seen only by their SYN+ACK", func(w *capgen.Writer, n int) { w.SYNFlood(n, true) }},
	{"onebyte", "bytes of a status response sent one per segment", (*capgen.Writer).OneByteSegments},
	{"garbage", "bytes of a stream on 25565 that is no protocol", (*capgen.Writer).GarbageStream},
	{"favicon", "bytes of a status response's favicon", (*capgen.Writer).Favicon},
	{"partial", "connections each leaving a 2 MB PDU unfinished", (*capgen.Writer).PartialPDUs},
	{"held", "2 MB status responses behind a request never answered", func(w *capgen.Writer, n int) { w.HeldBehindRequest(n, 2000000) }},
	{"ooo", "connections of 3000 one-byte segments behind a hole", func(w *capgen.Writer, n int) { w.OutOfOrderBytes(n, 3000) }},
	{"frags", "IPv4 datagrams of which only the first fragment is captured", func(w *capgen.Writer, n int) { w.IncompleteFragments(n, time.Time{}) }},
	{"fraglists", "64 KB IPv4 datagrams, every fragment but the last", (*capgen.Writer).FragmentLists},
	{"ip6frag", "Query full stats and SLP handshakes in IPv6 fragments", (*capgen.Writer).IPv6Fragmented},
	{"ip6ext", "Query full stats and SLP pings behind IPv6 options headers", (*capgen.Writer).IPv6ExtensionHeaders},
	{"vlan", "Query stats and SLP pings under 0x9100 and stacked VLAN tags", (*capgen.Writer).StackedVLANs},
	{"levels", "Classic connections holding 1 MiB of level never finalized", (*capgen.Writer).LevelsHeld},
	{"idents", "Classic connections sending 100 of 131 identification bytes", (*capgen.Writer).PartialIdentifications},
	{"biglevel", "(ignored) one legal 1024×64×1024 level, 64 MiB inflated", func(w *capgen.Writer, _ int) { w.BigLevel() }},
	{"fullstat", "copies of one key in a single Query full stat", func(w *capgen.Writer, n int) { w.FullStatKeys(1, n) }},
	{"fullstats", "Query full stats, each with 16,000 copies of one key", func(w *capgen.Writer, n int) { w.FullStatKeys(n, 16000) }},
	{"hbparams", "heartbeat parameters before the salt (GET and POST)", (*capgen.Writer).HeartbeatManyParams},
	{"hbchunked", "(ignored) chunked POST heartbeats cut inside the salt", func(w *capgen.Writer, _ int) { w.HeartbeatChunked() }},
	{"copies", "(ignored) the salt and key echoed in other PDUs", func(w *capgen.Writer, _ int) { w.SecretCopies() }},
	{"slpmid", "pings and pongs after a status response picked up mid-way", (*capgen.Writer).SLPMidStatus},
	{"hbnosyn", "(ignored) a heartbeat captured from its request line, no SYN", func(w *capgen.Writer, _ int) { w.HeartbeatWithoutSYN() }},
	{"linesep", "(ignored) U+2028 and U+2029 in every text field kind", func(w *capgen.Writer, _ int) { w.LineSeparators() }},
	{"encodings", "(ignored) the salt and key in every encoding other protocols use", func(w *capgen.Writer, _ int) { w.SecretEncodings() }},
	{"keys", "players, each with a distinct valid key said in chat", (*capgen.Writer).ManyKeys},
	{"playbombs", "compressed play packets inflating 1000:1 (1.20.4 and 1.8)", (*capgen.Writer).PlayZipBombs},
	{"playcounts", "play sessions whose arrays, NBT and strings declare 2^31-1", (*capgen.Writer).PlayDeclaredCounts},
	{"playnbt", "play sessions with NBT nested 511 to 100,000 deep", (*capgen.Writer).PlayDeepNBT},
	{"playpartial", "connections in play each leaving a 1.5 MB compressed packet unfinished", (*capgen.Writer).PlayPartialPackets},
	{"playcrypt", "encrypted logins, no key, 32 KB each way, all open at once", (*capgen.Writer).PlayEncrypted},
	{"late", "(ignored) copies of the salt held behind a request, the salt learned after", func(w *capgen.Writer, _ int) { w.SecretLate(true) }},
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: hostilegen KIND N out.pcap   (hostilegen list: the kinds)")
	os.Exit(2)
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "list" {
		for _, k := range kinds {
			fmt.Printf("%-10s N: %s\n", k.name, k.n)
		}
		return
	}
	if len(os.Args) != 4 {
		usage()
	}
	var kd *kind
	for i := range kinds {
		if kinds[i].name == os.Args[1] {
			kd = &kinds[i]
		}
	}
	if kd == nil {
		fmt.Fprintln(os.Stderr, "hostilegen: unknown kind", os.Args[1])
		usage()
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil || n < 0 {
		fmt.Fprintln(os.Stderr, "hostilegen: N must be a count")
		os.Exit(2)
	}
	w, err := capgen.Create(os.Args[3])
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostilegen:", err)
		os.Exit(1)
	}
	kd.write(w, n)
	if err := w.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "hostilegen:", err)
		os.Exit(1)
	}
}
