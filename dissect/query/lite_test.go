package query

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// Lite decoding (no tree) must say what full decoding says: Message, Info
// and Dir. The Tracker leaves Lite PDUs alone: what it adds is in the tree
// only, so they are never Pending.

func querySamples(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("..", "..", "samples", "*query*.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join("testdata", "query-full.pcap"))
	if len(files) < 8 {
		t.Fatalf("found only %d Query samples", len(files))
	}
	return files
}

// liteRun is one decoding of a capture: every PDU, and after each
// datagram the Pending marks of all PDUs so far.
type liteRun struct {
	tr      *Tracker
	lite    bool
	pdus    []*dissect.PDU
	pending []string
}

func (r *liteRun) datagram(d datagram) {
	dir, ok := Looks(d.payload)
	if !ok {
		dir = dissect.DirUnknown
	}
	p := &dissect.PDU{Lite: r.lite}
	Decode(p, d.payload, d.wireLen, dir)
	m := dissect.Meta{Frame: d.frame, Time: d.time, Client: d.src, Server: d.dst, Dir: p.Dir}
	if p.Dir == dissect.DirS2C {
		m.Client, m.Server = d.dst, d.src
	}
	r.tr.Expire(d.time)
	r.tr.Observe(m, p)
	r.pdus = append(r.pdus, p)
	r.mark()
}

func (r *liteRun) mark() {
	var b strings.Builder
	for _, p := range r.pdus {
		if p.Pending {
			b.WriteByte('P')
		} else {
			b.WriteByte('.')
		}
	}
	r.pending = append(r.pending, b.String())
}

func summary(p *dissect.PDU) string {
	return fmt.Sprintf("%s | %s | %v", p.Message, p.Info, p.Dir)
}

func TestLiteSamples(t *testing.T) {
	for _, path := range querySamples(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			dgs, err := readPcap(path)
			if err != nil {
				t.Fatal(err)
			}
			full, lite := &liteRun{tr: NewTracker()}, &liteRun{tr: NewTracker(), lite: true}
			cut := 0
			for k, d := range dgs {
				full.datagram(d)
				lite.datagram(d)
				if d.wireLen > len(d.payload) {
					cut++
				}
				// the tracker keeps nothing of Lite PDUs
				if len(lite.tr.clients) != 0 || lite.tr.pending.live != 0 {
					t.Fatalf("datagram %d: the tracker kept %d clients and %d requests of Lite PDUs", k, len(lite.tr.clients), lite.tr.pending.live)
				}
			}
			t.Logf("%d datagrams, %d cut by the capture", len(dgs), cut)
			full.tr.Close()
			lite.tr.Close()
			full.mark()
			lite.mark()
			if len(full.pdus) == 0 {
				t.Fatal("no datagram")
			}
			for k := range full.pdus {
				if f, l := summary(full.pdus[k]), summary(lite.pdus[k]); f != l {
					t.Errorf("datagram %d: full %s\nLite %s", k, f, l)
				}
				if n := len(lite.pdus[k].Nodes); n != 1 {
					t.Errorf("datagram %d: Lite tree of %d nodes", k, n)
				}
				if tok, ok := handshakeToken(full.pdus[k]); !sameToken(full.pdus[k], tok, ok) {
					t.Errorf("datagram %d: handshakeToken = %d %v, the tree says otherwise", k, tok, ok)
				}
			}
			if a := strings.Join(full.pending, ""); !strings.Contains(a, "P") {
				t.Errorf("no full PDU was ever Pending: the test sees nothing")
			}
			if b := strings.Join(lite.pending, "\n"); strings.Contains(b, "P") {
				t.Errorf("Lite PDUs were Pending:\n%s", b)
			}
		})
	}
}

// sameToken reports whether handshakeToken's answer for response p is the
// generated query.token node of its tree (full mode).
func sameToken(p *dissect.PDU, tok int32, ok bool) bool {
	i := int32(-1)
	if p.Dir == dissect.DirS2C {
		i = p.Find(fToken.Name)
	}
	if i < 0 {
		return !ok || p.Dir != dissect.DirS2C
	}
	return ok && int32(p.Nodes[i].Value.Int()) == tok
}
