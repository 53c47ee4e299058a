package slp

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
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

// noisyFavicon is a 64x64 PNG that does not compress to almost nothing,
// as real server icons do not: a data URI of about 6 KB, the size the
// generated benchmark capture's favicons have.
func noisyFavicon() string {
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	x := uint32(1)
	for i := range img.Pix {
		x = x*1664525 + 1013904223
		img.Pix[i] = byte(x>>28) * 16
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
}

// benchStatus decodes a status response whose JSON is js, reusing the
// PDU and the connection's buffers; lite decodes without a tree.
func benchStatus(b *testing.B, js string, lite bool) {
	resp := statusResp(js)
	c := NewConn()
	c.Frame(c2s, seedHandshake, false)
	c.Decode(&dissect.PDU{}, seedHandshake, dissect.Meta{Dir: c2s})
	p := &dissect.PDU{Lite: lite}
	b.SetBytes(int64(len(resp)))
	b.ReportAllocs()
	for b.Loop() {
		c.Decode(p, resp, dissect.Meta{Dir: s2c})
	}
}

func bigStatusJSON() string {
	return `{"version":{"name":"Paper 1.21.1","protocol":767},"players":{"max":100,"online":3,"sample":[{"name":"Alex","id":"ec561538-f3fd-461d-aff5-086b22154bce"},{"name":"Steve","id":"8667ba71-b85a-4004-af54-457a9734eed7"},{"name":"Notch","id":"069a79f4-44e9-4726-a5be-fca90e38aaf5"}]},"description":{"text":"A ","color":"gold","extra":[{"text":"Minecraft","bold":true},"§r server"]},"favicon":"` + noisyFavicon() + `","enforcesSecureChat":true,"previewsChat":false}`
}

// BenchmarkDecodeStatusBig: a status response with a 6 KB favicon, the
// kind the 100 MB benchmark capture is full of.
func BenchmarkDecodeStatusBig(b *testing.B)     { benchStatus(b, bigStatusJSON(), false) }
func BenchmarkDecodeStatusBigLite(b *testing.B) { benchStatus(b, bigStatusJSON(), true) }

// benchConn runs whole connections, one per iteration, each on a new
// Conn that frames nothing (as the pipeline's decoding side), closed at
// the end: what a connection costs besides its packets.
func benchConn(b *testing.B, steps []step, lite bool) {
	ps := make([]dissect.PDU, len(steps))
	for k := range ps {
		ps[k].Lite = lite
	}
	b.ReportAllocs()
	for b.Loop() {
		c := NewConn()
		for k, s := range steps {
			c.Decode(&ps[k], s.data, dissect.Meta{Dir: s.dir})
		}
		c.Close(dissect.ConnEnd{})
	}
}

// BenchmarkConnStatus: handshake, status request, a status response with
// a 6 KB favicon, ping and pong.
func BenchmarkConnStatus(b *testing.B) {
	benchConn(b, []step{{c2s, seedHandshake}, {c2s, seedStatusReq}, {s2c, statusResp(bigStatusJSON())}, {c2s, seedPing}, {s2c, seedPing}}, false)
}

// BenchmarkConnCompressed: a login that turns compression on, then three
// compressed packets.
func BenchmarkConnCompressed(b *testing.B) {
	body := append([]byte{2}, bytes.Repeat([]byte("configuration data "), 40)...)
	z := compressedPkt(int32(len(body)), zlibBytes(body))
	benchConn(b, []step{{c2s, handshake(766, "localhost", 25565, 2)}, {s2c, pkt(3, vi(64))}, {s2c, z}, {s2c, z}, {s2c, z}}, false)
}

// BenchmarkDecodeStatusFresh decodes into a new PDU each time, as the
// pipeline does when its pooled records are busy or small.
func BenchmarkDecodeStatusFresh(b *testing.B) {
	resp := statusResp(bigStatusJSON())
	c := NewConn()
	c.Decode(&dissect.PDU{}, seedHandshake, dissect.Meta{Dir: c2s})
	b.ReportAllocs()
	for b.Loop() {
		var p dissect.PDU
		c.Decode(&p, resp, dissect.Meta{Dir: s2c})
	}
}
