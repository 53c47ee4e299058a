package slp

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

func BenchmarkFrame(b *testing.B) {
	steps := conversations()["status"]
	var buf []byte
	for _, s := range steps[:2] {
		buf = append(buf, s.data...)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		c := Conn{}
		c.fr.reset()
		for rest := buf; len(rest) > 0; {
			f := c.Frame(c2s, rest, false)
			rest = rest[f.Len:]
		}
	}
}

// BenchmarkDecodeStatusResponse decodes a status response with a 64x64
// favicon, reusing the PDU and the connection's buffers.
func BenchmarkDecodeStatusResponse(b *testing.B) {
	resp := conversations()["status"][2].data
	c := NewConn()
	c.Frame(c2s, seedHandshake, false)
	c.Decode(&dissect.PDU{}, seedHandshake, dissect.Meta{Dir: c2s})
	p := &dissect.PDU{}
	b.SetBytes(int64(len(resp)))
	b.ReportAllocs()
	for b.Loop() {
		c.Decode(p, resp, dissect.Meta{Dir: s2c})
	}
}

func BenchmarkDecodeHandshake(b *testing.B) {
	p := &dissect.PDU{}
	b.ReportAllocs()
	for b.Loop() {
		c := Conn{}
		c.dec.reset()
		c.Decode(p, seedHandshake, dissect.Meta{Dir: c2s, Server: "10.0.0.2:25565"})
	}
}
