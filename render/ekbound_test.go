package render

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/mcdissect/mcdissect/record"
)

// TestEKMaxDoc: an ek document bounded by MaxDoc (ship's, for an engine
// that drops a longer line) is valid JSON within the bound, keeps the
// fields that fit in tree order, and counts the rest in
// mc_omitted.mc_omitted_fields; every field is either in it or counted. A
// document within the bound, and -T ek's Record, are as without it.
func TestEKMaxDoc(t *testing.T) {
	small, big := bigTree(t, 10, 0), bigTree(t, 20000, 3<<20)
	const max = 64 << 10
	for _, c := range []struct {
		name   string
		fields []string
	}{
		{"layers", nil},
		{"-e", []string{"frame.number", "query.key", "query.hostport", "query.payload"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var refs []record.FieldRef
			for _, f := range c.fields {
				ref, err := record.ResolveField(f)
				if err != nil {
					t.Fatal(err)
				}
				refs = append(refs, ref)
			}
			free := NewAppender("ek", Options{Fields: refs})
			bound := NewAppender("ek", Options{Fields: refs, MaxDoc: max})
			if a, b := free.Append(nil, small, false), bound.Append(nil, small, false); !bytes.Equal(a, b) {
				t.Errorf("a small record's document changed under the bound:\n%s\n%s", a, b)
			}
			whole := free.Append(nil, big, false)
			got := bound.Append(nil, big, false)
			doc := got[bytes.IndexByte(got, '\n')+1:]
			if len(doc) > max || len(whole) <= 2*max {
				t.Fatalf("bounded document of %d bytes (max %d), the whole one %d", len(doc), max, len(whole))
			}
			var d struct {
				Layers map[string]json.RawMessage `json:"layers"`
			}
			if err := json.Unmarshal(doc, &d); err != nil {
				t.Fatalf("not JSON: %v\n%.300s…%s", err, doc, doc[len(doc)-300:])
			}
			var om struct {
				N int `json:"mc_omitted_fields"`
			}
			if err := json.Unmarshal(d.Layers["mc_omitted"], &om); err != nil || om.N == 0 {
				t.Fatalf("no count of the fields left out: %s (%v)", d.Layers["mc_omitted"], err)
			}
			// every value: in the document or counted
			wholeN := countValues(t, whole, c.name)
			if n := countValues(t, got, c.name); n+om.N != wholeN {
				t.Errorf("%d values kept and %d counted out, of %d", n, om.N, wholeN)
			}
		})
	}
	// Record, writing -T ek to a file, ignores the bound.
	var out bytes.Buffer
	w := New("ek", &out, Options{MaxDoc: max})
	w.Begin()
	w.Record(big)
	w.End()
	if want := NewAppender("ek", Options{}).Append(nil, big, false); !bytes.Equal(out.Bytes(), want) {
		t.Errorf("-T ek with MaxDoc: %d bytes, want the whole %d", out.Len(), len(want))
	}
}

// countValues counts the values of an ek document (its index line first):
// of its query layer, or with -e of every field.
func countValues(t *testing.T, b []byte, mode string) int {
	t.Helper()
	var d struct {
		Layers map[string]json.RawMessage `json:"layers"`
	}
	if err := json.Unmarshal(b[bytes.IndexByte(b, '\n')+1:], &d); err != nil {
		t.Fatal(err)
	}
	members := d.Layers
	if mode == "layers" {
		members = map[string]json.RawMessage{}
		if err := json.Unmarshal(d.Layers["query"], &members); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for name, v := range members {
		if name == "mc_omitted" {
			continue
		}
		var vs []json.RawMessage
		if json.Unmarshal(v, &vs) != nil {
			vs = []json.RawMessage{v}
		}
		n += len(vs)
	}
	if n == 0 {
		t.Fatalf("no values counted in %s", strconv.Quote(string(b[:min(200, len(b))])))
	}
	return n
}
