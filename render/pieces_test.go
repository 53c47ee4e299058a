package render

import (
	"bytes"
	"io"
	"net/netip"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/query"
	"github.com/mcdissect/mcdissect/record"
)

// bigTree is a Query record built by hand with the dissect API: a section
// of k pairs, each a keyed node over a key (text with XML's and JSON's
// special characters) and a little-endian port (which --explain works
// out), an expert item on every 64th pair, then a payload of the given
// size (one leaf of that many bytes, in hex). k = 70,000 is some 210,000
// nodes.
func bigTree(t testing.TB, k, payload int) *record.Record {
	t.Helper()
	lookup := func(name string) *dissect.Field {
		f, _, ok := dissect.LookupField(name)
		if !ok {
			t.Fatalf("no field %s", name)
		}
		return f
	}
	kvs, kv, key, port, pay := lookup("query.kvs"), lookup("query.kv"), lookup("query.key"), lookup("query.hostport"), lookup("query.payload")
	data := make([]byte, 4*k+payload)
	for i := range data {
		data[i] = byte(i * 7)
	}
	r := &record.Record{Frame: 3, Src: netip.MustParseAddrPort("10.0.0.2:25565"), Dst: netip.MustParseAddrPort("10.0.0.1:40000"), Stream: -1, Proto: "query"}
	c := dissect.Begin(&r.PDU, query.Registry.Root(), data, len(data))
	c.Open(kvs, 4*k)
	e := query.Registry.Experts()[0]
	for i := range k {
		c.Open(kv, 4)
		r.PDU.Nodes[c.Parent()].Key = "k&<" + string(rune('a'+i%26))
		c.Field(key, 2, dissect.S(`a<b & "c" 'd'`))
		c.Uint16LE(port)
		c.Close()
		if i%64 == 0 {
			c.Expert(c.Last(), e, `an item with <xml> & "quotes"`)
		}
	}
	c.Close()
	if payload > 0 {
		c.Field(pay, payload, dissect.B(data[4*k:]))
	}
	c.Finish()
	if len(r.PDU.Experts) < k/64 {
		t.Fatalf("%d expert items, want %d", len(r.PDU.Experts), k/64)
	}
	return r
}

// writeSizes is a writer that keeps what it is given and the size of the
// largest single Write.
type writeSizes struct {
	bytes.Buffer
	largest int
}

func (w *writeSizes) Write(p []byte) (int, error) {
	w.largest = max(w.largest, len(p))
	return w.Buffer.Write(p)
}

// bufOf is the batchWriter of the renderer w.
func bufOf(t *testing.T, w Writer) *batchWriter {
	switch r := w.(type) {
	case *textRenderer:
		return &r.batchWriter
	case *pdmlRenderer:
		return &r.batchWriter
	case *jsonRenderer:
		return &r.batchWriter
	case *ekRenderer:
		return &r.batchWriter
	case *fieldsRenderer:
		return &r.batchWriter
	}
	t.Fatalf("%T writes no batches", w)
	return nil
}

// TestLargeRecordInPieces: a record of 210,000 nodes and a payload of
// 1 MiB, many megabytes of text in every output, reaches the writer in
// pieces of at most a bound far below that, and the renderer's buffer
// stays as small; the pieces make what Append makes of the record, byte
// for byte. Two records, so that the second is cut after the first's
// bytes.
func TestLargeRecordInPieces(t *testing.T) {
	if testing.Short() {
		t.Skip("renders records of 210,000 nodes")
	}
	r := bigTree(t, 70000, 1<<20)
	refs := func(names ...string) []record.FieldRef {
		var out []record.FieldRef
		for _, n := range names {
			ref, err := record.ResolveField(n)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, ref)
		}
		return out
	}
	// A piece is what passes the writer's 64 KiB and one step more: a
	// node, 32 lines of hex, 16 KiB of a value in hex with colons.
	const bound = 128 << 10
	cases := []struct {
		name, format string
		o            Options
	}{
		{"V", "text", Options{Verbose: true}},
		{"V-colour", "text", Options{Verbose: true, Colour: true}},
		{"V-x", "text", Options{Verbose: true, Hex: true}},
		{"x", "text", Options{Hex: true}},
		{"explain", "text", Options{Verbose: true, Explain: true}},
		{"pdml", "pdml", Options{}},
		{"pdml-redact", "pdml", Options{Redact: true}},
		{"json", "json", Options{}},
		{"ek", "ek", Options{}},
		{"ek-e", "ek", Options{Fields: refs("query.key", "query.payload", "query.hostport")}},
		{"fields", "fields", Options{Fields: refs("frame.number", "query.key", "query.hostport")}},
		{"fields-quoted", "fields", Options{Fields: refs("query.key", "query.payload"), Quote: '"', Header: true}},
		{"fields-first", "fields", Options{Fields: refs("query.payload", "query.key"), Occurrence: 'f'}},
		{"fields-last", "fields", Options{Fields: refs("query.key", "query.payload"), Occurrence: 'l', Quote: '\''}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := &writeSizes{}
			w := New(c.format, got, c.o)
			if err := w.Begin(); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				if err := w.Record(r); err != nil {
					t.Fatal(err)
				}
			}
			buffered := cap(bufOf(t, w).buf)
			if err := w.End(); err != nil {
				t.Fatal(err)
			}

			// The same records made whole by an Appender.
			var want bytes.Buffer
			ww := New(c.format, &want, c.o)
			a := NewAppender(c.format, c.o)
			ww.Begin()
			ww.Raw(a.Append(nil, r, true), 1)
			ww.Raw(a.Append(nil, r, false), 1)
			ww.End()

			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				at := 0
				for at < min(got.Len(), want.Len()) && got.Bytes()[at] == want.Bytes()[at] {
					at++
				}
				t.Fatalf("written in pieces: %d bytes, made whole: %d; they differ at byte %d", got.Len(), want.Len(), at)
			}
			if want.Len() < 16*bound {
				t.Fatalf("the records are %d bytes: too few to need pieces of %d", want.Len(), bound)
			}
			if got.largest > bound || buffered > 2*bound {
				t.Errorf("records of %d bytes: largest write %d bytes, buffer %d: want at most %d and %d", want.Len(), got.largest, buffered, bound, 2*bound)
			}
			t.Logf("%d bytes, largest write %d, buffer %d", want.Len(), got.largest, buffered)
		})
	}
}

// TestPDMLAllocs: -T pdml allocates nothing per node (a name, a tree line
// or an escape made as a string cost several allocations each), so a
// record of 210,000 nodes, keyed nodes, expert items, secrets and text to
// escape among them, costs no more allocations than one of 200: a
// handful for the record, none growing with its nodes.
func TestPDMLAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("renders records of 210,000 nodes")
	}
	for _, o := range []Options{{}, {Redact: true}} {
		var allocs [2]float64
		for i, k := range []int{64, 70000} {
			r := bigTree(t, k, 4096)
			r.PDU.Nodes[3].Flags |= dissect.FlagSensitive
			w := New("pdml", io.Discard, o)
			w.Begin()
			allocs[i] = testing.AllocsPerRun(3, func() {
				if err := w.Record(r); err != nil {
					t.Fatal(err)
				}
			})
		}
		t.Logf("redact %v: %.0f allocations a record of 200 nodes, %.0f of 210,000", o.Redact, allocs[0], allocs[1])
		if allocs[1] > allocs[0]+2 || allocs[1] > 16 {
			t.Errorf("redact %v: %.0f allocations a record of 210,000 nodes, %.0f of 200: want as few, at most 16", o.Redact, allocs[1], allocs[0])
		}
	}
}
