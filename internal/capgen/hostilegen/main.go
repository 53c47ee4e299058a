// Command hostilegen writes one hostile capture (see capgen's hostile.go) at
// the scale asked, to measure memory on the built binary:
//
//	go run ./internal/capgen/hostilegen synack 250000 /tmp/synack.pcap
//	/usr/bin/time -v mcdissect -r /tmp/synack.pcap >/dev/null
//
// Kinds: syn, synack, partial (2 MB PDUs left one segment short), ooo
// (3000 one-byte segments behind a hole), held (2 MB status responses
// behind a request never answered) (connections); onebyte,
// garbage, favicon (bytes); frags (datagrams).
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: hostilegen syn|synack|partial|held|ooo|onebyte|garbage|favicon|frags N out.pcap")
		os.Exit(2)
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
	switch os.Args[1] {
	case "syn":
		w.SYNFlood(n, false)
	case "synack":
		w.SYNFlood(n, true)
	case "onebyte":
		w.OneByteSegments(n)
	case "garbage":
		w.GarbageStream(n)
	case "favicon":
		w.Favicon(n)
	case "partial":
		w.PartialPDUs(n)
	case "held":
		w.HeldBehindRequest(n, 2000000)
	case "ooo":
		w.OutOfOrderBytes(n, 3000)
	case "frags":
		w.IncompleteFragments(n, time.Time{})
	default:
		fmt.Fprintln(os.Stderr, "hostilegen: unknown kind", os.Args[1])
		os.Exit(2)
	}
	if err := w.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "hostilegen:", err)
		os.Exit(1)
	}
}
