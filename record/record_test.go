package record

import (
	"testing"
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
)

// TestRecordOwn: a record viewing a buffer of the pipeline's that must outlive it
// copies its bytes, and its PDU and tree values follow; the arena may then
// be overwritten.
func TestRecordOwn(t *testing.T) {
	arena := []byte("xxhello, world")
	r := &Record{}
	r.Borrow(arena[2:])
	c := dissect.Begin(&r.PDU, dissect.Core.Root(), r.Data(), len(r.Data()))
	c.Field(dissect.FieldUndissected, 5, dissect.B(r.Data()[:5]))
	c.Finish()
	r.Own()
	copy(arena, "................")
	if string(r.Data()) != "hello, world" || string(r.PDU.Data) != "hello, world" {
		t.Errorf("data %q, PDU data %q after the arena changed", r.Data(), r.PDU.Data)
	}
	if got := string(r.PDU.Nodes[1].Value.B); got != "hello" {
		t.Errorf("node value %q after the arena changed, want %q", got, "hello")
	}
	if r.borrowed {
		t.Error("still borrowed")
	}
	r.Own() // owning twice changes nothing
	if string(r.Data()) != "hello, world" {
		t.Errorf("data %q after a second own", r.Data())
	}
}

// TestRecordOwnEveryView: whatever of a borrowed record views the
// pipeline's buffer (node values, keys, texts, expert messages, Message, Info) is
// intact after own, and after clone, once the arena is written over, as
// it is when the back end reuses it for the next batch.
func TestRecordOwnEveryView(t *testing.T) {
	view := func(b []byte) string { return unsafe.String(&b[0], len(b)) }
	for _, tc := range []struct {
		name string
		keep func(r *Record) *Record
	}{
		{"own", func(r *Record) *Record { r.Own(); return r }},
		{"clone", func(r *Record) *Record { return r.Clone() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			arena := []byte("..key=text|info|message|expert")
			r := &Record{}
			r.Borrow(arena[2:])
			d := r.Data()
			c := dissect.Begin(&r.PDU, dissect.Core.Root(), d, len(d))
			c.Field(dissect.FieldUndissected, 3, dissect.B(d[:3]))
			c.Finish()
			n := &r.PDU.Nodes[1]
			n.Key, n.Text = view(d[0:3]), view(d[4:8])
			r.PDU.Info, r.PDU.Message = view(d[9:13]), view(d[14:21])
			r.PDU.Experts = append(r.PDU.Experts, dissect.ExpertItem{Node: 1, Msg: view(d[22:28])})
			k := tc.keep(r)
			for i := range arena {
				arena[i] = '#'
			}
			kn := &k.PDU.Nodes[1]
			got := []string{string(k.data), string(kn.Value.B), kn.Key, kn.Text, k.PDU.Info, k.PDU.Message, k.PDU.Experts[len(k.PDU.Experts)-1].Msg}
			want := []string{"key=text|info|message|expert", "key", "key", "text", "info", "message", "expert"}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("view %d: %q after the arena was reused, want %q", i, got[i], want[i])
				}
			}
		})
	}
}

// TestRedactOwnCopy: redaction writes the record's own copy of the bytes,
// never bytes it views (the batch's arena, a decoder's buffer), whether
// the record borrowed them or its PDU's data points elsewhere.
func TestRedactOwnCopy(t *testing.T) {
	for _, borrowed := range []bool{false, true} {
		arena := []byte("abcdefgh")
		r := &Record{Proto: "tcp", Kind: KindUndissected}
		if borrowed {
			r.Borrow(arena)
		} else {
			r.SetData([]byte("other"))
		}
		c := dissect.Begin(&r.PDU, dissect.Core.Root(), arena, len(arena))
		c.Field(dissect.FieldUndissected, len(arena), dissect.B(arena))
		c.Finish()
		r.Redact(dissect.NewSecrets())
		if string(arena) != "abcdefgh" {
			t.Errorf("borrowed %v: the viewed bytes became %q", borrowed, arena)
		}
		if string(r.PDU.Data) == "abcdefgh" {
			t.Errorf("borrowed %v: the record's bytes were not redacted", borrowed)
		}
	}
}
