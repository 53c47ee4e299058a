package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// -c stops the output in order: -V -c 70 over a capture of more than one
// batch prints the golden file's first 70 records, no more.
func TestBinaryCountAcrossBatches(t *testing.T) {
	want, err := os.ReadFile("../../golden/classic-session.txt")
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := mcd(t, nil, "-r", "../../samples/classic-session.pcap", "-V", "-c", "70")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(out, "\nFrame "); n != 70 {
		t.Errorf("%d records, want 70", n)
	}
	if !bytes.HasPrefix(want, []byte(out)) {
		t.Error("-V -c 70 output is not the start of the golden -V output")
	}
}
