// Command handmade writes the hand-made sample captures: the cases real peers
// never produce (reordered, duplicated and missing segments, hostile length
// prefixes, malformed and truncated packets, CPE sessions, heartbeats). Every
// file it writes is named samples/handmade-*.pcap and listed as hand-made in
// samples/README.md. Run from the repository root:
//
//	go run ./samples/handmade
//
// The output is deterministic: fixed addresses, ports and timestamps.
package main

import (
	"fmt"
	"os"
)

func main() {
	dir := "samples"
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	for _, w := range []struct {
		name string
		fn   func(string) error
	}{{"query", writeQuery}, {"slp", writeSLP}, {"slp-losses", writeSLPLosses}, {"classic", writeClassic}, {"secrets", writeSecrets}, {"classic-cut", writeClassicCut}, {"bounds", writeBounds}, {"hostile", writeHostile}} {
		if err := w.fn(dir); err != nil {
			fmt.Fprintf(os.Stderr, "handmade: %s: %v\n", w.name, err)
			os.Exit(1)
		}
	}
}
