package analyze

import (
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// recordLine is what a record says, with its tree when it has one: two
// runs that dissect alike produce the same lines.
func recordLine(r *Record, tree bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %v %s %s %s kind=%d dir=%v %q %q rel=%v parts=%v gap=%d %q",
		r.Frame, r.Time.UnixNano(), r.Src, r.Dst, r.Proto, r.Kind, r.PDU.Dir, r.PDU.Message, r.PDU.Info, r.Rel, r.Parts, r.GapLength, r.Reason)
	if tree {
		for _, n := range r.PDU.Nodes {
			fmt.Fprintf(&b, "\n  %s %d+%d %x %d %q %x", n.Name(), n.Offset, n.Length, n.Flags, n.Value.N, n.Text, n.Value.B)
		}
		for _, e := range r.PDU.Experts {
			fmt.Fprintf(&b, "\n  ! %d %s %s", e.Node, e.Info.Name, e.Msg)
		}
	}
	return b.String()
}

func runLines(t *testing.T, path string, opts Options, tree bool) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := OpenFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	emit := func(r *Record) error {
		lines = append(lines, recordLine(r, tree))
		return nil
	}
	a := New(opts, emit)
	if _, err := Run(src, a); err != nil {
		t.Fatal(err)
	}
	if got, want := a.Stats().Records, uint64(len(lines)); got != want {
		t.Errorf("Stats().Records = %d, emitted %d", got, want)
	}
	return lines
}

// The back end on its own goroutine (Parallel), fed in batches of any
// size, must emit exactly what the one-goroutine analyzer emits; and Lite
// decoding must give every record the same summary columns. Every sample
// capture is run, so every protocol's framer/decoder instance split is
// exercised on real traffic.
func TestParallelAndLiteMatchSerial(t *testing.T) {
	paths, _ := filepath.Glob("../samples/*.pcap")
	if len(paths) == 0 {
		t.Fatal("no sample captures")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			want := runLines(t, path, Options{}, true)
			if len(want) == 0 {
				t.Fatal("no records")
			}
			for _, o := range []Options{{Parallel: true}, {Parallel: true, Batch: 1}, {Parallel: true, Batch: 7, Keep: true}} {
				got := runLines(t, path, o, true)
				diffLines(t, fmt.Sprintf("parallel batch %d", o.Batch), got, want)
			}
			wantCols := runLines(t, path, Options{}, false)
			for _, o := range []Options{{Lite: true}, {Lite: true, Parallel: true}, {Lite: true, Parallel: true, NoTCPHeader: true}} {
				got := runLines(t, path, o, false)
				diffLines(t, fmt.Sprintf("lite parallel=%v notcpheader=%v", o.Parallel, o.NoTCPHeader), got, wantCols)
			}
		})
	}
}

func diffLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d records, want %d", what, len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("%s: record %d differs:\n got %s\nwant %s", what, i, got[i], want[i])
			return
		}
	}
}

// A Lite record keeps its root node only.
func TestLiteRecordsHaveNoTree(t *testing.T) {
	var n int
	a := New(Options{Lite: true}, func(r *Record) error {
		if len(r.PDU.Nodes) > 1 {
			t.Errorf("frame %d (%s): %d nodes in a Lite record", r.Frame, r.PDU.Message, len(r.PDU.Nodes))
		}
		n++
		return nil
	})
	f, err := os.Open("../samples/query-full.pcap")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := OpenFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(src, a); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no records")
	}
}

// An emit error stops a parallel analyzer: the front end stops reading soon
// after, Finish returns the error (nil for ErrStop), and nothing is emitted
// after it.
func TestParallelStop(t *testing.T) {
	for _, stop := range []error{ErrStop, os.ErrClosed} {
		n := 0
		a := New(Options{Parallel: true, Batch: 3}, func(r *Record) error {
			n++
			if n == 5 {
				return stop
			}
			if n > 5 {
				t.Errorf("record %d emitted after the error", n)
			}
			return nil
		})
		f, err := os.Open("../samples/classic-session.pcap")
		if err != nil {
			t.Fatal(err)
		}
		src, err := OpenFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Run(src, a)
		f.Close()
		want := stop
		if stop == ErrStop {
			want = nil
		}
		if err != want {
			t.Errorf("Run = %v, want %v", err, want)
		}
		if n != 5 {
			t.Errorf("%d records emitted, want 5", n)
		}
	}
}

// Pseudo-field values cost no allocation per record, addresses included:
// -T fields with -e ip.src runs on every record.
func TestPseudoFieldsAllocateNothing(t *testing.T) {
	r4 := &Record{Src: netip.MustParseAddrPort("10.0.0.1:5000"), Dst: netip.MustParseAddrPort("10.0.0.2:25565"), TCP: true, Proto: "slp"}
	r6 := &Record{Src: netip.MustParseAddrPort("[2001:db8::1]:5000"), Dst: netip.MustParseAddrPort("[2001:db8::2]:25565"), Proto: "query"}
	var got []string
	for _, r := range []*Record{r4, r6} {
		for _, name := range []string{"ip.src", "ip.dst", "ipv6.src", "ipv6.dst", "mc.protocol"} {
			ref, err := ResolveField(name)
			if err != nil {
				t.Fatal(err)
			}
			ref.Each(r, func(n *dissect.Node) { got = append(got, name+"="+n.Value.Text()) })
			var sink int
			if a := testing.AllocsPerRun(100, func() { ref.Each(r, func(n *dissect.Node) { sink += len(n.Value.B) }) }); a != 0 {
				t.Errorf("%s: %.1f allocations per lookup", name, a)
			}
		}
	}
	want := "[ip.src=10.0.0.1 ip.dst=10.0.0.2 mc.protocol=slp ipv6.src=2001:db8::1 ipv6.dst=2001:db8::2 mc.protocol=query]"
	if fmt.Sprint(got) != want {
		t.Errorf("values %v\nwant %s", got, want)
	}
}

// NoTCPHeader keeps no table of sequence bases and gives no record a TCP
// header (the IP header stays), while the records are the same
// (TestParallelAndLiteMatchSerial); without it a TCP record has its header.
func TestNoTCPHeader(t *testing.T) {
	for _, no := range []bool{false, true} {
		f, err := os.Open("../samples/slp-status-concurrent.pcap")
		if err != nil {
			t.Fatal(err)
		}
		src, err := OpenFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var tcp, withHeader, withIP int
		a := New(Options{Lite: true, NoTCPHeader: no}, func(r *Record) error {
			if r.TCP {
				tcp++
				if r.Layers.Has&HasTCP != 0 {
					withHeader++
				}
				if r.Layers.Has&(HasIPv4|HasIPv6) != 0 {
					withIP++
				}
			}
			return nil
		})
		if _, err := Run(src, a); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if tcp == 0 {
			t.Fatal("no TCP records")
		}
		if no && (withHeader != 0 || len(a.net.bases) != 0) {
			t.Errorf("NoTCPHeader: %d of %d TCP records have a header, %d sequence bases kept", withHeader, tcp, len(a.net.bases))
		}
		if !no && (withHeader != tcp || len(a.net.bases) == 0) {
			t.Errorf("%d of %d TCP records have a header, %d sequence bases kept", withHeader, tcp, len(a.net.bases))
		}
		if withIP != tcp {
			t.Errorf("NoTCPHeader %v: %d of %d TCP records have their IP header", no, withIP, tcp)
		}
	}
}
