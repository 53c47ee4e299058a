package analyze

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/internal/mcgen"
	"github.com/mcdissect/mcdissect/record"
)

// recordLine is what a record says, with its tree when it has one: two
// runs that dissect alike produce the same lines.
func recordLine(r *record.Record, tree bool) string {
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

// runLines runs the capture at path with opts and returns its records'
// lines, in output order.
func runLines(t *testing.T, path string, opts Options, tree bool) []string {
	t.Helper()
	var lines []string
	a := New(opts, SinkFunc(func(r *record.Record) error {
		lines = append(lines, recordLine(r, tree))
		return nil
	}))
	if _, err := Run(fileSource(t, path), a); err != nil {
		t.Fatal(err)
	}
	if got, want := a.Stats().Records, uint64(len(lines)); got != want {
		t.Errorf("Stats().Records = %d, emitted %d", got, want)
	}
	return lines
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

func fileSource(t testing.TB, path string) Source {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src, err := OpenFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// mixedCapture writes mcgen's small capture of all three protocols for
// seed to a temporary file and returns its path.
func mixedCapture(t *testing.T, seed uint64) string {
	t.Helper()
	var gen bytes.Buffer
	if _, err := mcgen.Generate(&gen, mcgen.SmallConfig(seed)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mixed.pcap")
	if err := os.WriteFile(path, gen.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The output is a function of the input alone: on one core and on two the
// same records come out in the same order, compared line by line, without
// sorting; Lite decoding gives every record the same summary columns, with
// or without the TCP header. Every sample capture is run, and a generated
// one that mixes all three protocols.
func TestSameOnOneCoreAndTwo(t *testing.T) {
	paths, _ := filepath.Glob("../samples/*.pcap")
	if len(paths) == 0 {
		t.Fatal("no sample captures")
	}
	paths = append(paths, mixedCapture(t, 3))
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			runtime.GOMAXPROCS(1)
			one := runLines(t, path, Options{}, true)
			cols := runLines(t, path, Options{}, false)
			runtime.GOMAXPROCS(2)
			two := runLines(t, path, Options{}, true)
			if len(one) == 0 {
				t.Fatal("no records")
			}
			diffLines(t, "two cores", two, one)
			for _, o := range []Options{{Lite: true}, {Lite: true, NoLayers: true}} {
				diffLines(t, fmt.Sprintf("lite notcpheader=%v", o.NoLayers), runLines(t, path, o, false), cols)
			}
		})
	}
}

// A record is at the frame that decides it: never before a frame its
// bytes came from. A request held for its response keeps its place, so a
// record's frame may be earlier than its predecessor's; every record's
// frame is one the run has read.
func TestRecordAtDecidingFrame(t *testing.T) {
	paths, _ := filepath.Glob("../samples/*.pcap")
	for _, path := range paths {
		var frames uint64
		a := New(Options{}, SinkFunc(func(r *record.Record) error {
			for _, p := range r.Parts {
				if p.Frame > r.Frame {
					t.Errorf("%s: frame %d (%s) lists frame %d", filepath.Base(path), r.Frame, r.PDU.Message, p.Frame)
				}
			}
			if r.Frame == 0 {
				t.Errorf("%s: a record (%s) at no frame", filepath.Base(path), r.PDU.Message)
			}
			frames = max(frames, r.Frame)
			return nil
		}))
		if _, err := Run(fileSource(t, path), a); err != nil {
			t.Fatal(err)
		}
		if frames > a.Stats().Frames {
			t.Errorf("%s: a record at frame %d of %d", filepath.Base(path), frames, a.Stats().Frames)
		}
	}
}

// A Lite record keeps its root node only.
func TestLiteRecordsHaveNoTree(t *testing.T) {
	var n int
	a := New(Options{Lite: true}, SinkFunc(func(r *record.Record) error {
		if len(r.PDU.Nodes) > 1 {
			t.Errorf("frame %d (%s): %d nodes in a Lite record", r.Frame, r.PDU.Message, len(r.PDU.Nodes))
		}
		n++
		return nil
	}))
	if _, err := Run(fileSource(t, "../samples/query-full.pcap"), a); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no records")
	}
}

// A sink's error stops the run: the front end stops reading soon after,
// Run returns the error (nil for ErrStop), and no record is given after it.
func TestSinkErrorStops(t *testing.T) {
	for _, stop := range []error{ErrStop, os.ErrClosed} {
		n := 0
		a := New(Options{}, SinkFunc(func(r *record.Record) error {
			n++
			if n == 5 {
				return stop
			}
			if n > 5 {
				t.Errorf("record %d given after the error", n)
			}
			return nil
		}))
		_, err := Run(fileSource(t, "../samples/classic-session.pcap"), a)
		want := stop
		if stop == ErrStop {
			want = nil
		}
		if !errors.Is(err, want) && err != want {
			t.Errorf("Run = %v, want %v", err, want)
		}
		if n != 5 {
			t.Errorf("%d records given, want 5", n)
		}
	}
}

// Pseudo-field values cost no allocation per record: -T fields with -e
// mc.protocol runs on every record.
func TestPseudoFieldsAllocateNothing(t *testing.T) {
	r4 := &record.Record{Src: netip.MustParseAddrPort("10.0.0.1:5000"), Dst: netip.MustParseAddrPort("10.0.0.2:25565"), TCP: true, Proto: "slp"}
	r6 := &record.Record{Src: netip.MustParseAddrPort("[2001:db8::1]:5000"), Dst: netip.MustParseAddrPort("[2001:db8::2]:25565"), Proto: "query"}
	r6.PDU.Message = "Handshake Request"
	var got []string
	for _, r := range []*record.Record{r4, r6} {
		for _, name := range []string{"mc.protocol", "mc.message"} {
			ref, err := record.ResolveField(name)
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
	want := "[mc.protocol=slp mc.protocol=query mc.message=Handshake Request]"
	if fmt.Sprint(got) != want {
		t.Errorf("values %v\nwant %s", got, want)
	}
}

// NoLayers keeps no table of sequence bases and gives no record the
// layers' tree, while the records are the same (TestSameOnOneCoreAndTwo);
// without it a TCP record has its frame's TCP layer.
func TestNoLayers(t *testing.T) {
	for _, no := range []bool{false, true} {
		var tcp, withLayers int
		a := New(Options{Lite: true, NoLayers: no}, SinkFunc(func(r *record.Record) error {
			if r.TCP {
				tcp++
				if net := r.Layers(); net.Find("tcp") >= 0 && net.Find("ip") >= 0 {
					withLayers++
				}
			}
			return nil
		}))
		if _, err := Run(fileSource(t, "../samples/slp-status-concurrent.pcap"), a); err != nil {
			t.Fatal(err)
		}
		if tcp == 0 {
			t.Fatal("no TCP records")
		}
		if no && withLayers != 0 {
			t.Errorf("NoLayers: %d of %d TCP records have layers", withLayers, tcp)
		}
		if !no && withLayers != tcp {
			t.Errorf("%d of %d TCP records have layers", withLayers, tcp)
		}
	}
}
