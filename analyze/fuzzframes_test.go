package analyze

import (
	"encoding/binary"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// FuzzFrames feeds the pipeline frames built from a compact encoding, so
// that every input is a well-formed capture whose payloads reach the
// dissectors, and skips the file format FuzzCapture spends most of its
// mutations breaking. Each frame is a control byte, a length byte and that
// many bytes of payload (cut at the input's end):
//
//	bit 0      the server sends it (else the client)
//	bits 1-2   which of four clients
//	bit 3      UDP (else TCP)
//	bits 4-5   the server's port: 25565, 80, 19132 or 25575
//	bit 6      TCP: a SYN (the server's: SYN+ACK), the payload dropped
//	bit 7      TCP: the payload's bytes are skipped, not sent (a gap)
//
// Each frame is a millisecond after the one before. Invariants, those of
// FuzzCapture: no panic, every record's tree is valid (dissect.Check), a
// record lists no frame after its own, and its frame is one of the
// capture's. One run: FuzzCapture compares it with a Lite one.
func FuzzFrames(f *testing.F) {
	f.Add([]byte("\x00\x00"))
	// A status ping: SYN, SYN+ACK, handshake and request, response.
	req := append(append([]byte(nil), slpHandshake...), 0x01, 0x00)
	resp := []byte{12, 0, 10, '{', '"', 'a', '"', ':', '1', '}', ' ', ' ', ' '}
	ping := append([]byte{0x40, 0, 0x41, 0, 0x00, byte(len(req))}, req...)
	f.Add(append(append(ping, 0x01, byte(len(resp))), resp...))
	// A Query handshake and its response on 25575.
	f.Add([]byte("\x38\x07\xfe\xfd\x09\x00\x00\x00\x01\x39\x0a\x09\x00\x00\x00\x01123456\x00"))
	// A heartbeat picked up without its SYN, then a Classic identification.
	hb := "GET /heartbeat.jsp?port=25565&salt=abcdefghijklmnop HTTP/1.1\r\n\r\n"
	id := append([]byte{0x00, 0x07}, []byte(fmt.Sprintf("%-64s%-64s", "alex", "0123456789abcdef0123456789abcdef"))...)
	id = append(id, 0)
	seed := append([]byte{0x10, byte(len(hb))}, hb...)
	seed = append(seed, 0x42, 0, 0x43, 0, 0x02, byte(len(id)))
	f.Add(append(seed, id...))
	f.Fuzz(func(t *testing.T, data []byte) {
		src := newFrameSource(data)
		var frames []uint64
		a := New(Options{}, SinkFunc(func(r *record.Record) error {
			if err := dissect.Check(&r.PDU); err != nil {
				t.Fatalf("frame %d (%s %s): %v", r.Frame, r.Proto, r.PDU.Message, err)
			}
			for _, p := range r.Parts {
				if p.Frame > r.Frame {
					t.Fatalf("frame %d (%s %s) lists frame %d", r.Frame, r.Proto, r.PDU.Message, p.Frame)
				}
			}
			frames = append(frames, r.Frame)
			return nil
		}))
		Run(src, a)
		n := a.Stats().Frames
		for _, f := range frames {
			if f == 0 || f > n {
				t.Fatalf("a record at frame %d of %d", f, n)
			}
		}
	})
}

// frameSource builds FuzzFrames' frames as Next is called.
type frameSource struct {
	in    []byte
	frame []byte
	now   time.Time
	seq   [4][2]uint32 // next sequence number per client and side
	n     uint64
}

func newFrameSource(in []byte) *frameSource {
	s := &frameSource{in: in, now: time.Unix(1700000000, 0)}
	for c := range s.seq {
		s.seq[c] = [2]uint32{0xfffff000 + uint32(c)<<8, 0x10000000 * uint32(c+1)}
	}
	return s
}

var fuzzPorts = [4]uint16{25565, 80, 19132, 25575}

func (s *frameSource) Next() (capture.Packet, error) {
	if len(s.in) < 2 {
		return capture.Packet{}, io.EOF
	}
	ctl, n := s.in[0], int(s.in[1])
	s.in = s.in[2:]
	payload := s.in[:min(n, len(s.in))]
	s.in = s.in[len(payload):]
	fromServer, client, udp := ctl&1 != 0, int(ctl>>1&3), ctl&8 != 0
	port := fuzzPorts[ctl>>4&3]
	cip := [4]byte{10, 0, 1, byte(client + 1)}
	sip := [4]byte{10, 0, 0, 1}
	cport := uint16(40000 + client)
	src, dst, sport, dport := cip, sip, cport, port
	if fromServer {
		src, dst, sport, dport = sip, cip, port, cport
	}
	side := 0
	if fromServer {
		side = 1
	}
	b := s.frame[:0]
	b = append(b, 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00)
	ip := len(b)
	b = append(b, 0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 0, 0, 0)
	b = append(b, src[:]...)
	b = append(b, dst[:]...)
	if udp {
		b[ip+9] = byte(layers.IPProtocolUDP)
		b = binary.BigEndian.AppendUint16(b, sport)
		b = binary.BigEndian.AppendUint16(b, dport)
		b = binary.BigEndian.AppendUint16(b, uint16(8+len(payload)))
		b = append(b, 0, 0)
		b = append(b, payload...)
	} else {
		b[ip+9] = byte(layers.IPProtocolTCP)
		seq, ack := s.seq[client][side], s.seq[client][1-side]
		flags := byte(0x18) // PSH, ACK
		switch {
		case ctl&0x40 != 0:
			flags = 0x02 // SYN
			if fromServer {
				flags = 0x12
			}
			payload = nil
			s.seq[client][side]++
		case ctl&0x80 != 0:
			s.seq[client][side] += uint32(len(payload))
			s.n++
			s.now = s.now.Add(time.Millisecond)
			return s.Next() // skipped: the next frame instead
		default:
			s.seq[client][side] += uint32(len(payload))
		}
		b = binary.BigEndian.AppendUint16(b, sport)
		b = binary.BigEndian.AppendUint16(b, dport)
		b = binary.BigEndian.AppendUint32(b, seq)
		b = binary.BigEndian.AppendUint32(b, ack)
		b = append(b, 0x50, flags, 0xff, 0xff, 0, 0, 0, 0)
		b = append(b, payload...)
	}
	binary.BigEndian.PutUint16(b[ip+2:], uint16(len(b)-ip))
	s.frame = b
	s.now = s.now.Add(time.Millisecond)
	s.n++
	ci := gopacket.CaptureInfo{Timestamp: s.now, CaptureLength: len(b), Length: len(b)}
	return capture.Packet{Data: b, Info: ci, LinkType: layers.LinkTypeEthernet}, nil
}

func (s *frameSource) Stats() capture.Stats { return capture.Stats{Received: s.n} }
func (s *frameSource) Stop()                { s.in = nil }
func (s *frameSource) Close() error         { return nil }
