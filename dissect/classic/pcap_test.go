package classic

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

const realCapture = "../../samples/classic-session.pcap" // a copy of shared/captures, provenance in samples/README.md

// segment is one TCP segment with payload from a pcap.
type segment struct {
	frame    uint64
	src, dst string
	seq      uint32
	payload  []byte
	syn, fin bool
}

// readPcap is a tiny stdlib-only reader: classic pcap, Ethernet link type,
// IPv4, TCP.
func readPcap(t testing.TB, path string) []segment {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("capture not available: %v", err)
	}
	if len(b) < 24 {
		t.Fatal("short pcap")
	}
	var bo binary.ByteOrder
	switch binary.LittleEndian.Uint32(b) {
	case 0xa1b2c3d4, 0xa1b23c4d:
		bo = binary.LittleEndian
	default:
		bo = binary.BigEndian
	}
	if lt := bo.Uint32(b[20:]); lt != 1 {
		t.Fatalf("link type %d, want 1 (Ethernet)", lt)
	}
	var out []segment
	off := 24
	for frame := uint64(1); off+16 <= len(b); frame++ {
		incl := int(bo.Uint32(b[off+8:]))
		pkt := b[off+16 : off+16+incl]
		off += 16 + incl
		if len(pkt) < 14 || binary.BigEndian.Uint16(pkt[12:]) != 0x0800 {
			continue
		}
		ip := pkt[14:]
		ihl := int(ip[0]&15) * 4
		total := int(binary.BigEndian.Uint16(ip[2:]))
		if ip[9] != 6 {
			continue
		}
		tcp := ip[ihl:total]
		doff := int(tcp[12]>>4) * 4
		src := fmt.Sprintf("%d.%d.%d.%d:%d", ip[12], ip[13], ip[14], ip[15], binary.BigEndian.Uint16(tcp[0:]))
		dst := fmt.Sprintf("%d.%d.%d.%d:%d", ip[16], ip[17], ip[18], ip[19], binary.BigEndian.Uint16(tcp[2:]))
		out = append(out, segment{frame: frame, src: src, dst: dst, seq: binary.BigEndian.Uint32(tcp[4:]),
			payload: tcp[doff:], syn: tcp[13]&2 != 0, fin: tcp[13]&1 != 0})
	}
	return out
}

// stream is one direction of a connection, reassembled in order.
type stream struct {
	data   []byte
	frames []uint64 // frame of each byte's segment start, parallel to starts
	starts []int
	next   uint32
	init   bool
}

func (s *stream) add(t testing.TB, seg segment) {
	if seg.syn {
		s.next, s.init = seg.seq+1, true
		return
	}
	if len(seg.payload) == 0 {
		return
	}
	if !s.init {
		t.Fatalf("frame %d: data before SYN", seg.frame)
	}
	if seg.seq != s.next {
		t.Fatalf("frame %d: seq %d, want %d (out of order or gap on loopback?)", seg.frame, seg.seq, s.next)
	}
	s.starts = append(s.starts, len(s.data))
	s.frames = append(s.frames, seg.frame)
	s.data = append(s.data, seg.payload...)
	s.next += uint32(len(seg.payload))
}

// frameAt is the frame of the segment holding stream byte i.
func (s *stream) frameAt(i int) uint64 {
	k := sort.SearchInts(s.starts, i+1) - 1
	return s.frames[k]
}

type truthFile struct {
	ServerReported struct {
		ServerName string `json:"server_name"`
		MOTD       string `json:"server_motd"`
	} `json:"server_reported"`
	TCPStreams []struct {
		ClientPort int `json:"client_port"`
		C2S        int `json:"payload_bytes_client_to_server"`
		S2C        int `json:"payload_bytes_server_to_client"`
	} `json:"tcp_streams"`
	Clients []struct {
		Username string   `json:"username"`
		Mppass   string   `json:"mppass"`
		Actions  []string `json:"actions"`
	} `json:"clients"`
}

func TestRealCapture(t *testing.T) {
	segs := readPcap(t, realCapture)
	var truth truthFile
	tb, err := os.ReadFile(strings.TrimSuffix(realCapture, ".pcap") + ".truth.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(tb, &truth); err != nil {
		t.Fatal(err)
	}
	type conn struct {
		client, server string
		dirs           [3]*stream
	}
	conns := map[string]*conn{}
	var order []*conn
	for _, s := range segs {
		var cn *conn
		var dir dissect.Dir
		if strings.HasSuffix(s.dst, ":25580") {
			cn, dir = conns[s.src], dissect.DirC2S
			if cn == nil {
				cn = &conn{client: s.src, server: s.dst, dirs: [3]*stream{nil, {}, {}}}
				conns[s.src] = cn
				order = append(order, cn)
			}
		} else {
			cn, dir = conns[s.dst], dissect.DirS2C
			if cn == nil {
				t.Fatalf("frame %d: server data before the client's SYN", s.frame)
			}
		}
		cn.dirs[dir].add(t, s)
	}
	if len(order) != 2 {
		t.Fatalf("%d connections, want 2", len(order))
	}
	sess := NewSession()
	var chats []string
	var users []string
	for ci, cn := range order {
		if got, want := len(cn.dirs[dissect.DirC2S].data), truth.TCPStreams[ci].C2S; got != want {
			t.Errorf("stream %d c2s: %d bytes, truth %d", ci, got, want)
		}
		if got, want := len(cn.dirs[dissect.DirS2C].data), truth.TCPStreams[ci].S2C; got != want {
			t.Errorf("stream %d s2c: %d bytes, truth %d", ci, got, want)
		}
		if Detect(cn.dirs[dissect.DirC2S].data) != DetectYes {
			t.Errorf("stream %d: Detect says no", ci)
		}
		c := NewConn(sess)
		// Frame both directions interleaved in segment order, as the
		// reassembler would: the client's bytes up to each server segment.
		off := [3]int{}
		p := dissect.PDU{Export: true} // its level object is checked
		levels := 0
		counts := map[string]int{}
		step := func(dir dissect.Dir, upto int) {
			st := cn.dirs[dir]
			for off[dir] < upto {
				f := c.Frame(dir, st.data[off[dir]:upto], false)
				if f.Status == dissect.FrameNeedMore {
					return
				}
				if f.Status != dissect.FrameOK {
					t.Fatalf("stream %d %s at %d: %v %q", ci, dir, off[dir], f.Status, f.Reason)
				}
				data := st.data[off[dir] : off[dir]+f.Len]
				c.Decode(&p, data, dissect.Meta{Frame: st.frameAt(off[dir] + f.Len - 1), Dir: dir, Client: cn.client, Server: cn.server})
				if err := dissect.Check(&p); err != nil {
					t.Fatalf("stream %d %s at %d (%s): %v", ci, dir, off[dir], p.Message, err)
				}
				for _, e := range p.Experts {
					if e.Info.Severity >= dissect.SevWarn {
						t.Errorf("stream %d %s %s: %s %s", ci, dir, p.Info, e.Info.Name, e.Msg)
					}
				}
				if counts[dir.String()+" "+p.Message] == 0 && testing.Verbose() {
					t.Log(dumpTree(&p))
				}
				counts[dir.String()+" "+p.Message]++
				switch p.Message {
				case "Player Identification":
					users = append(users, p.Nodes[p.Find("classic.username")].Value.Text())
					if got := p.Nodes[p.Find("classic.unused")].Value.N; got != 0 {
						t.Errorf("unused byte %d, truth says CPE off", got)
					}
				case "Server Identification":
					if got := p.Nodes[p.Find("classic.server_name")].Value.Text(); got != truth.ServerReported.ServerName {
						t.Errorf("server name %q, truth %q", got, truth.ServerReported.ServerName)
					}
					if got := p.Nodes[p.Find("classic.motd")].Value.Text(); got != truth.ServerReported.MOTD {
						t.Errorf("motd %q, truth %q", got, truth.ServerReported.MOTD)
					}
				case "Message":
					if dir == dissect.DirC2S {
						chats = append(chats, p.Nodes[p.Find("classic.message")].Value.Text())
					}
				case "Level Finalize":
					levels++
					if got := p.Nodes[p.Find("classic.level.block_count")].Value.N; got != 64*32*64 {
						t.Errorf("block count %d, want 64×32×64", got)
					}
					if len(p.Objects) != 2 || len(p.Objects[0].Data) != 64*32*64 { // the blocks and their map
						t.Errorf("level object: %d objects", len(p.Objects))
					}
					if p.Find("classic.level.type_count") < 0 || p.Find("classic.level.chunk_frame") < 0 {
						t.Error("no per-type counts or chunk frames")
					}
				}
				off[dir] += f.Len
			}
		}
		// Replay in segment order.
		type ev struct {
			frame uint64
			dir   dissect.Dir
			end   int
		}
		var evs []ev
		for _, d := range []dissect.Dir{dissect.DirC2S, dissect.DirS2C} {
			st := cn.dirs[d]
			for k, s := range st.starts {
				end := len(st.data)
				if k+1 < len(st.starts) {
					end = st.starts[k+1]
				}
				_ = s
				evs = append(evs, ev{st.frames[k], d, end})
			}
		}
		sort.Slice(evs, func(i, j int) bool { return evs[i].frame < evs[j].frame })
		for _, e := range evs {
			step(e.dir, e.end)
		}
		for _, d := range []dissect.Dir{dissect.DirC2S, dissect.DirS2C} {
			if off[d] != len(cn.dirs[d].data) {
				t.Errorf("stream %d %s: %d of %d bytes framed", ci, d, off[d], len(cn.dirs[d].data))
			}
		}
		if levels != 1 {
			t.Errorf("stream %d: %d levels", ci, levels)
		}
		t.Logf("stream %d: %v", ci, counts)
	}
	if strings.Join(users, ",") != "alice,bob" {
		t.Errorf("users %v", users)
	}
	want := []string{"hello from alice", "hi alice, bob here"}
	if strings.Join(chats, "|") != strings.Join(want, "|") {
		t.Errorf("chats %q, want %q", chats, want)
	}
}
