package reassembly

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

func TestManyStreams(t *testing.T) {
	const nConns, nPDUs = 200, 20
	rng := rand.New(rand.NewPCG(1, 2))
	type stream struct {
		data []byte
		cuts []int // segment boundaries
		next int   // next segment to send
		isn  uint32
	}
	streams := make([]*stream, nConns)
	for i := range streams {
		s := &stream{isn: rng.Uint32()}
		for j := 0; j < nPDUs; j++ {
			s.data = append(s.data, pdu(rng.IntN(100), byte(j))...)
		}
		for at := 0; at < len(s.data); {
			at = min(len(s.data), at+1+rng.IntN(150))
			s.cuts = append(s.cuts, at)
		}
		streams[i] = s
	}
	got := make([][]string, nConns)
	streamOf := map[int]int{} // Stream number -> conn index
	r := New(func(c *ConnInfo) ConnHandler {
		i := int(c.Client.Port) - 50000
		streamOf[c.Stream] = i
		f := markFramer{}
		return &handlerFunc{
			frame: func(_ Dir, b []byte, g bool) FrameResult { return f.frame(b, g) },
			deliver: func(u *Unit) {
				got[i] = append(got[i], fmt.Sprintf("%s %d %d %x", u.Kind, u.StreamOffset, u.Length, u.Data))
			},
		}
	}, Limits{})
	frame := uint64(0)
	for open := nConns; open > 0; {
		i := rng.IntN(nConns)
		s := streams[i]
		if s.next > len(s.cuts) {
			continue
		}
		frame++
		if s.next == len(s.cuts) {
			s.next++
			open--
			feedOne(r, frame, pkt{seq: s.isn + 1 + uint32(len(s.data)), flags: "AF", conn: i})
			continue
		}
		from := 0
		if s.next > 0 {
			from = s.cuts[s.next-1]
		}
		feedOne(r, frame, pkt{seq: s.isn + 1 + uint32(from), flags: "A", payload: s.data[from:s.cuts[s.next]], conn: i})
		s.next++
	}
	r.Close()
	for i, s := range streams {
		var want []string
		for off := 0; off < len(s.data); {
			n := 2 + int(s.data[off+1])
			want = append(want, fmt.Sprintf("pdu %d %d %x", off, n, s.data[off:off+n]))
			off += n
		}
		if !slices.Equal(got[i], want) {
			t.Fatalf("conn %d:\n got %q\nwant %q", i, got[i], want)
		}
	}
	if len(streamOf) != nConns {
		t.Fatalf("%d stream numbers for %d connections", len(streamOf), nConns)
	}
	if s := r.Stats(); r.internalErrors != 0 || s.Queued != 0 {
		t.Fatalf("internal errors %d, %d bytes still held out of order", r.internalErrors, s.Queued)
	}
}

type handlerFunc struct {
	frame   func(Dir, []byte, bool) FrameResult
	deliver func(*Unit)
}

func (h *handlerFunc) Frame(d Dir, b []byte, g bool) FrameResult { return h.frame(d, b, g) }
func (h *handlerFunc) Deliver(u *Unit)                           { h.deliver(u) }

// A segment of thousands of bytes held out of order is attributed to its
// frame as a whole.
func TestLongSegmentsOutOfOrder(t *testing.T) {
	body := make([]byte, 4000)
	data := cat([]byte{0, 0, 0x0F, 0xA0}, body) // bigFrame: 4-byte length
	var log []string
	r := newTestReassembler(big, Limits{}, &log)
	feed(r, 1, withHandshake(c2s(2000, data[2000:]...), c2s(0, data[:2000]...)))
	r.Close()
	want := []string{"s0 c2s pdu @0+4004 #5 [#5(2000) #4(2004)]"}
	if !slices.Equal(log, want) {
		t.Fatalf("got %q, want %q", log, want)
	}
}

func TestDirections(t *testing.T) {
	tests := []struct {
		name         string
		flags        string
		sport, dport layers.TCPPort
		swap         bool
		wantClient   uint16
		wantDir      Dir
	}{
		{"SYN sender is the client", "S", 25565, 50000, false, 25565, ClientToServer},
		{"SYN+ACK sender is the server", "SA", 25565, 50000, false, 50000, ServerToClient},
		{"well-known port is the server", "A", 80, 20000, false, 20000, ServerToClient},
		{"higher port is the client", "A", 50000, 25565, false, 50000, ClientToServer},
		{"factory may swap", "A", 50000, 25565, true, 25565, ServerToClient},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var info *ConnInfo
			var dirs []Dir
			r := New(func(c *ConnInfo) ConnHandler {
				if tc.swap {
					c.Client, c.Server = c.Server, c.Client
				}
				info = c
				return &handlerFunc{
					frame:   func(_ Dir, b []byte, _ bool) FrameResult { return OK(len(b)) },
					deliver: func(u *Unit) { dirs = append(dirs, u.Dir) },
				}
			}, Limits{})
			a, b := clientIP.As4(), serverIP.As4()
			tcp := &layers.TCP{SrcPort: tc.sport, DstPort: tc.dport, Seq: 10}
			tcp.Payload = []byte("hi")
			tcp.SYN = tc.flags[0] == 'S'
			tcp.ACK = tc.flags[len(tc.flags)-1] == 'A'
			r.Feed(1, gopacket.CaptureInfo{Timestamp: t0}, gopacket.NewFlow(layers.EndpointIPv4, a[:], b[:]), tcp)
			r.Close()
			if info.Client.Port != tc.wantClient {
				t.Errorf("client port %d, want %d", info.Client.Port, tc.wantClient)
			}
			if len(dirs) != 1 || dirs[0] != tc.wantDir {
				t.Errorf("directions %v, want [%v]", dirs, tc.wantDir)
			}
		})
	}
}

// A framer that never finds the end of its PDU must not make the buffer
// grow past the per-connection limit.
func TestUnknownLengthHitsLimit(t *testing.T) {
	var log []string
	r := New(func(c *ConnInfo) ConnHandler {
		return &recorder{log: &log, frame: func(Dir, []byte, bool) FrameResult { return NeedMore(0) }}
	}, Limits{MaxBufferedPerConn: 1000, HistoryBytes: -1}) // Buffered then counts only the PDU buffer
	var script []pkt
	for i := 0; i < 30; i++ {
		script = append(script, c2s(i*100, make([]byte, 100)...))
	}
	feed(r, 4, withHandshake(script...))
	if s := r.Stats(); s.PeakBuffered > 1000 || s.BufferLimitHits != 1 {
		t.Errorf("peak buffered %d, limit hits %d", s.PeakBuffered, s.BufferLimitHits)
	}
	r.Close()
	if len(log) == 0 || !strings.Contains(log[0], `undissected @0+`) || !strings.Contains(log[0], `"buffer limit"`) {
		t.Fatalf("first unit %q", log)
	}
	total := 0
	for _, l := range log {
		var s, o, n, f int
		var d, k string
		fmt.Sscanf(l, "s%d %s %s @%d+%d #%d", &s, &d, &k, &o, &n, &f)
		total += n
	}
	if total != 3000 {
		t.Errorf("units cover %d bytes, want 3000: %q", total, log)
	}
}
