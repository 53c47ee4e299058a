package analyze

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// TestRecordOwn: a record viewing a batch's arena that must outlive it
// copies its bytes, and its PDU and tree values follow; the arena may then
// be overwritten.
func TestRecordOwn(t *testing.T) {
	arena := []byte("xxhello, world")
	r := &Record{}
	r.borrow(arena[2:])
	c := dissect.Begin(&r.PDU, dissect.Core.Root(), r.data, len(r.data))
	c.Field(dissect.FieldUndissected, 5, dissect.B(r.data[:5]))
	c.Finish()
	r.own()
	copy(arena, "................")
	if string(r.data) != "hello, world" || string(r.PDU.Data) != "hello, world" {
		t.Errorf("data %q, PDU data %q after the arena changed", r.data, r.PDU.Data)
	}
	if got := string(r.PDU.Nodes[1].Value.B); got != "hello" {
		t.Errorf("node value %q after the arena changed, want %q", got, "hello")
	}
	if r.borrowed {
		t.Error("still borrowed")
	}
	r.own() // owning twice changes nothing
	if string(r.data) != "hello, world" {
		t.Errorf("data %q after a second own", r.data)
	}
}
