package output

import (
	"errors"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/filter"
	_ "github.com/mcdissect/mcdissect/protocols/all"
	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/render"
)

// writer is a render.Writer that notes what it is given.
type writer struct {
	render.Writer
	log []string
}

func (w *writer) Record(r *record.Record) error {
	w.log = append(w.log, "render "+r.Reason)
	return nil
}

func (w *writer) Flush() error {
	w.log = append(w.log, "flush")
	return nil
}

// reader is a Reader of fn that reads what needs says.
type reader struct {
	fn    func(*record.Record) error
	needs record.Needs
}

func (r reader) Record(rec *record.Record) error { return r.fn(rec) }
func (r reader) Needs() record.Needs             { return r.needs }

// rec is a record named by its Reason, whose protocol is keep or drop.
func rec(name, proto string, sec int) *record.Record {
	return &record.Record{Reason: name, Proto: proto, Time: time.Unix(int64(sec), 0)}
}

// TestSink: readers see each record shown in the order they were added,
// before the renderer; the filter drops records before anything sees
// them; -l flushes after each; -c stops after Count; -t dd's delta is
// the time since the previous record shown.
func TestSink(t *testing.T) {
	flt, err := filter.Compile(`mc.protocol == "keep"`)
	if err != nil {
		t.Fatal(err)
	}
	w := &writer{}
	shown := 0
	s := &Sink{W: w, Filter: flt, Count: 2, Line: true, DeltaShown: true, Shown: func() { shown++ }}
	var deltas []time.Duration
	s.Read(reader{fn: func(r *record.Record) error {
		w.log = append(w.log, "a "+r.Reason)
		deltas = append(deltas, r.DeltaShown)
		return nil
	}})
	s.Read(reader{fn: func(r *record.Record) error { w.log = append(w.log, "b "+r.Reason); return nil }})
	for i, m := range []string{"keep 1", "drop", "keep 2", "keep 3"} {
		err := s.Record(rec(m, m[:4], 10*i))
		if want := i >= 2; errors.Is(err, record.ErrStop) != want || err != nil && !want {
			t.Errorf("%s: %v", m, err)
		}
	}
	want := []string{"a keep 1", "b keep 1", "render keep 1", "flush", "a keep 2", "b keep 2", "render keep 2", "flush"}
	if len(w.log) < len(want) {
		t.Fatalf("log %q", w.log)
	}
	for i := range want {
		if w.log[i] != want[i] {
			t.Fatalf("log %q\nwant %q", w.log, want)
		}
	}
	if shown != 3 || len(deltas) != 3 || deltas[0] != 0 || deltas[1] != 20*time.Second || deltas[2] != 10*time.Second {
		t.Errorf("shown %d, deltas %v", shown, deltas)
	}
}

// TestSinkReaderError: a reader's error stops the record before the
// renderer and the readers after it.
func TestSinkReaderError(t *testing.T) {
	w := &writer{}
	s := &Sink{W: w}
	bad := errors.New("disk full")
	s.Read(reader{fn: func(*record.Record) error { return bad }})
	s.Read(reader{fn: func(*record.Record) error { t.Error("a reader after the error"); return nil }})
	if err := s.Record(rec("x", "keep", 0)); err != bad || len(w.log) != 0 {
		t.Errorf("%v, log %q", err, w.log)
	}
}

// TestSinkNeeds: the sink reads what its renderer, its filter and each of
// its readers read, together.
func TestSinkNeeds(t *testing.T) {
	summary, err := filter.Compile(`mc.protocol == "slp"`)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := filter.Compile(`slp.status`)
	if err != nil {
		t.Fatal(err)
	}
	layers, err := filter.Compile(`ip.src == 10.0.0.1 && tcp.flags.syn && tcp`)
	if err != nil {
		t.Fatal(err)
	}
	src, syn := netlayers.WantField(netlayers.FieldIPSrc), netlayers.WantField(netlayers.FieldTCPFlagSYN)
	none := func(*record.Record) error { return nil }
	for _, tc := range []struct {
		name    string
		w       record.Needs
		flt     *filter.Filter
		readers []record.Needs
		want    record.Needs
	}{
		{name: "summary"},
		{name: "renderer", w: record.Needs{Trees: true}, want: record.Needs{Trees: true}},
		{name: "summary filter", flt: summary},
		{name: "tree filter", flt: tree, want: record.Needs{Trees: true}},
		{name: "filter of layers", flt: layers, want: record.Needs{Layers: src.Or(syn)}},
		{name: "filter and renderer", w: record.Needs{Layers: netlayers.Lines}, flt: layers, want: record.Needs{Layers: src.Or(syn).Or(netlayers.Lines)}},
		{name: "reader of nothing", readers: []record.Needs{{}}},
		{name: "reader of trees", readers: []record.Needs{{}, {Trees: true}}, want: record.Needs{Trees: true}},
		{name: "readers together", readers: []record.Needs{{Layers: src}, {Trees: true}, {Layers: syn}}, want: record.Needs{Trees: true, Layers: src.Or(syn)}},
		{name: "reader of all", readers: []record.Needs{{Layers: src}, {Layers: netlayers.All}}, want: record.Needs{Layers: netlayers.All}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Sink{W: &writer{}, WNeeds: tc.w, Filter: tc.flt}
			for _, n := range tc.readers {
				s.Read(reader{none, n})
			}
			if got := s.Needs(); got != tc.want {
				t.Errorf("%+v, want %+v", got, tc.want)
			}
		})
	}
}
