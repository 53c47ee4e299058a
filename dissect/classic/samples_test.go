package classic

import (
	"flag"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// replayed is what replaying one pcap produced.
type replayed struct {
	pdus    []string // dumpTree of each PDU
	sums    []string // what Lite must keep of each PDU: Dir, Message, Info, Pending
	lost    []string // FrameLost / FrameSkip reasons
	experts map[string]int
	objects int
}

type framer interface {
	Frame(dir dissect.Dir, buf []byte, afterGap bool) dissect.Frame
	Decode(p *dissect.PDU, data []byte, m dissect.Meta)
}

// replay reassembles each TCP connection of segs in capture order (a
// forward sequence jump is a gap), picks Classic or heartbeat with Detect,
// and frames and decodes everything, as the analyzer would.
func replay(t *testing.T, segs []segment) *replayed { return replayWith(t, segs, replayOpts{}) }

// replayOpts vary how replayWith decodes.
type replayOpts struct {
	// split frames with one instance and decodes with a second one made
	// by the same constructor, telling the second of gaps through Gap, as
	// the two-goroutine pipeline does.
	split bool
	lite  bool // decode with dissect.PDU.Lite
}

func replayWith(t *testing.T, segs []segment, o replayOpts) *replayed {
	out := &replayed{experts: map[string]int{}}
	sess := NewSession()
	type side struct {
		buf     []byte
		next    uint32
		init    bool
		gap     bool
		lost    bool
		lastFrm uint64
	}
	type conn struct {
		client, server string
		f              framer
		d              framer // decodes: f, or a second instance under split
		hb             *Heartbeat
		sides          [3]*side
	}
	conns := map[string]*conn{}
	key := func(a, b string) string {
		if a < b {
			return a + "|" + b
		}
		return b + "|" + a
	}
	var p dissect.PDU
	p.Lite = o.lite
	p.Export = true // objects are counted
	pump := func(cn *conn, dir dissect.Dir, atEnd bool) {
		s := cn.sides[dir]
		if cn.f == nil || s.lost {
			return
		}
		for len(s.buf) > 0 {
			f := cn.f.Frame(dir, s.buf, s.gap)
			if f.Status == dissect.FrameNeedMore && atEnd && cn.hb != nil {
				f = cn.hb.FrameAtEnd(dir, s.buf)
			}
			s.gap = false
			switch f.Status {
			case dissect.FrameNeedMore:
				if atEnd {
					out.lost = append(out.lost, "left at end: "+itoa(len(s.buf)))
				}
				return
			case dissect.FrameLost:
				out.lost = append(out.lost, f.Reason)
				s.lost, s.buf = true, nil
				return
			case dissect.FrameSkip:
				out.lost = append(out.lost, f.Reason)
				s.buf = s.buf[f.Len:]
				continue
			}
			cn.d.Decode(&p, s.buf[:f.Len], dissect.Meta{Frame: s.lastFrm, Dir: dir, Client: cn.client, Server: cn.server})
			if err := dissect.Check(&p); err != nil && !o.lite { // a Lite tree is its root only
				t.Fatalf("%s: %v\n%s", p.Info, err, dumpTree(&p))
			}
			out.pdus = append(out.pdus, dumpTree(&p))
			out.sums = append(out.sums, summary(&p))
			for _, e := range p.Experts {
				out.experts[e.Info.Name]++
			}
			out.objects += len(p.Objects)
			s.buf = s.buf[f.Len:]
		}
	}
	for _, sg := range segs {
		k := key(sg.src, sg.dst)
		cn := conns[k]
		if cn == nil {
			if !sg.syn {
				continue
			}
			cn = &conn{client: sg.src, server: sg.dst, sides: [3]*side{nil, {}, {}}}
			conns[k] = cn
		}
		dir := dissect.DirC2S
		if sg.src == cn.server {
			dir = dissect.DirS2C
		}
		s := cn.sides[dir]
		if sg.syn {
			s.next, s.init = sg.seq+1, true
			continue
		}
		if len(sg.payload) > 0 {
			d := int32(sg.seq - s.next)
			if d < 0 {
				continue // retransmission (none in these samples)
			}
			if d > 0 {
				s.gap = true
				s.buf = nil
				if g, ok := cn.d.(interface{ Gap(dissect.Dir) }); ok && o.split {
					g.Gap(dir)
				}
			}
			s.buf = append(s.buf, sg.payload...)
			s.next = sg.seq + uint32(len(sg.payload))
			s.lastFrm = sg.frame
			if cn.f == nil && dir == dissect.DirC2S {
				if Detect(s.buf) == DetectYes {
					cn.f, cn.d = NewConn(sess), nil
					if o.split {
						cn.d = NewConn(sess)
					}
				} else if DetectHeartbeat(s.buf) == DetectYes {
					cn.hb = NewHeartbeat(sess)
					cn.f, cn.d = cn.hb, nil
					if o.split {
						cn.d = NewHeartbeat(sess)
					}
				}
				if cn.d == nil {
					cn.d = cn.f
				}
			}
			pump(cn, dir, false)
		}
		if sg.fin {
			pump(cn, dir, true)
		}
	}
	return out
}

func TestHandmadeSamples(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(*samplesDir, "handmade-classic-*.pcap"))
	if len(files) == 0 {
		t.Skip("no hand-made samples (go run ./samples/handmade)")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := replay(t, readPcap(t, f))
			if testing.Verbose() {
				t.Log(strings.Join(r.pdus, "\n"))
				t.Log(r.lost)
			}
			var names []string
			for k, v := range r.experts {
				names = append(names, k+"="+itoa(v))
			}
			sort.Strings(names)
			t.Logf("%d PDUs, %d objects, lost %q, experts %v", len(r.pdus), r.objects, r.lost, names)
			switch filepath.Base(f) {
			case "handmade-classic-vanilla.pcap", "handmade-classic-cpe.pcap":
				if len(r.lost) != 0 || r.objects == 0 || r.experts["mc.undissected"] != 0 || r.experts["classic.cpe.not_agreed"] != 0 {
					t.Errorf("lost %q objects %d", r.lost, r.objects)
				}
			case "handmade-classic-heartbeat.pcap":
				if r.experts["classic.key_forged"] != 1 || r.experts["classic.heartbeat.salt_exposed"] != 2 {
					t.Errorf("key check: %v", names)
				}
			case "handmade-classic-bomb.pcap":
				if r.experts["classic.level.bomb"] != 1 || r.objects != 0 {
					t.Errorf("bomb: %v", names)
				}
			case "handmade-classic-unknown.pcap":
				if len(r.lost) != 1 || !strings.Contains(r.lost[0], "0x42") {
					t.Errorf("unknown: %q", r.lost)
				}
			case "handmade-classic-gap.pcap":
				if len(r.lost) != 1 || !strings.Contains(r.lost[0], "resynchronised") {
					t.Errorf("gap: %q", r.lost)
				}
			}
		})
	}
}

var samplesDir = flag.String("samples", "../../samples", "directory of the hand-made samples")
