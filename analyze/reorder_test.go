package analyze

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// inOrder is where recs first go back in frame order, or "" when they
// never do.
func inOrder(recs []*Record) string {
	var last uint64
	for i, r := range recs {
		if r.Frame < last {
			return fmt.Sprintf("record %d is frame %d, after frame %d", i, r.Frame, last)
		}
		last = r.Frame
	}
	return ""
}

// runAll runs a capture through a, keeping copies of the records.
func runAll(t *testing.T, capt []byte, opts Options) ([]*Record, *Analyzer) {
	t.Helper()
	src, err := OpenFile(bytes.NewReader(capt))
	if err != nil {
		t.Fatal(err)
	}
	var recs []*Record
	a := New(opts, func(r *Record) error {
		recs = append(recs, r.clone())
		return nil
	})
	if _, err := Run(src, a); err != nil {
		t.Fatal(err)
	}
	return recs, a
}

// TestSamplesInFrameOrder: on every sample capture, on every way of
// running the back end, records come out in frame order, and no bound of
// the reorder stage had to let one go early.
func TestSamplesInFrameOrder(t *testing.T) {
	paths, _ := filepath.Glob("../samples/*.pcap")
	more, _ := filepath.Glob("/work/shared/captures/*.pcap")
	paths = append(paths, more...)
	if len(paths) == 0 {
		t.Fatal("no sample captures")
	}
	for _, path := range paths {
		capt, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []Options{{}, {Parallel: true, Batch: 7}, {Lite: true}} {
			recs, a := runAll(t, capt, o)
			if len(recs) == 0 {
				t.Errorf("%s: no records", path)
			}
			if bad := inOrder(recs); bad != "" {
				t.Errorf("%s (parallel %v): %s", path, o.Parallel, bad)
			}
			if a.stage.forced != 0 {
				t.Errorf("%s: %d jobs passed on ahead of the watermark", path, a.stage.forced)
			}
		}
	}
}

// twoConns writes a connection a whose bytes' fate is decided late, by
// build, and a whole status ping b whose frames come in between (b is
// written by status, step by step).
type twoConns struct {
	w    *capgen.Writer
	a, b *capgen.TCPConn
	now  time.Time
}

// at gives c the shared clock, so that both connections' frames are in
// time order.
func (tc *twoConns) at(c *capgen.TCPConn) *capgen.TCPConn {
	if tc.a.Now.After(tc.now) {
		tc.now = tc.a.Now
	}
	if tc.b.Now.After(tc.now) {
		tc.now = tc.b.Now
	}
	c.Now = tc.now
	return c
}

// status writes the whole of connection b; with more, another more
// connections like it after it.
func (tc *twoConns) status(more ...int) {
	tc.ping()
	for i := range append(more, 0)[0] {
		tc.b = tc.w.TCP(netipPort(tcpClient, uint16(40002+i)), tcpServer, tc.now)
		tc.ping()
	}
}

// ping writes the whole of connection b: a status ping.
func (tc *twoConns) ping() {
	resp := slpStatusResponse(`{"version":{"name":"1.21.1","protocol":767},"players":{"max":20,"online":1},"description":"x"}`)
	ping := []byte{0x09, 0x01, 0, 0, 0, 0, 0, 0, 0x2e, 0x5d}
	tc.at(tc.b).Handshake()
	tc.at(tc.b).Send(true, slpHandshake)
	tc.at(tc.b).Send(true, []byte{0x01, 0x00})
	tc.at(tc.b).Send(false, resp)
	tc.at(tc.b).Send(true, ping)
	tc.at(tc.b).Send(false, ping)
	tc.at(tc.b).Close()
}

// TestReorderStage: bytes whose fate is decided after later frames were
// read (undissected at the connection's end, behind a hole given up when
// the peer acknowledges it, a PDU framed once the other direction named
// the protocol) are reported at the frames that carried them, and their
// records come out before those of the later frames; a record that waits
// for its connection's protocol says that protocol. Past a bound, records
// go on ahead, and the stage says how many.
func TestReorderStage(t *testing.T) {
	resp := slpStatusResponse(`{"version":{"name":"1.21.1","protocol":767},"players":{"max":20,"online":1},"description":"x"}`)
	for _, c := range []struct {
		name string
		// build writes connection a around tc.status(), which writes b.
		build func(tc *twoConns)
		opts  Options
		// want: "frame message proto" of a's records that must be there.
		want   []string
		forced bool // a bound lets records go early: they may be out of order
	}{
		{"undissected at the close", func(tc *twoConns) {
			tc.at(tc.a).Handshake()
			tc.at(tc.a).Send(true, slpHandshake[:9]) // frame 4: half a handshake, never completed
			tc.status()
			tc.at(tc.a).Close()
		}, Options{}, []string{"4 Undissected bytes tcp"}, false},
		{"behind a hole given up at the peer's ACK", func(tc *twoConns) {
			tc.at(tc.a).Handshake()
			tc.at(tc.a).Send(true, slpHandshake)                                     // 4
			tc.a.Skip(true, 2)                                                       // the status request, not captured
			tc.at(tc.a).Send(true, []byte{0x09, 0x01, 0, 0, 0, 0, 0, 0, 0x2e, 0x5d}) // 5: queued behind the hole
			tc.status()
			tc.at(tc.a).Send(false, resp) // its ACK covers the hole
			tc.at(tc.a).Close()
		}, Options{}, []string{"4 Handshake slp", "5 Missing bytes slp", "5 Ping Request slp"}, false},
		{"framed once the server's bytes name the protocol", func(tc *twoConns) {
			tc.at(tc.a).Handshake()
			tc.a.Skip(true, len(slpHandshake))         // not captured
			tc.at(tc.a).Send(true, []byte{0x01, 0x00}) // 4: waits for a proof
			tc.status()
			tc.at(tc.a).Send(false, resp) // decides: SLP
			tc.at(tc.a).Close()
		}, Options{}, []string{"4 Missing bytes slp", "4 Status Request slp"}, false},
		{"too many waiting", func(tc *twoConns) {
			tc.at(tc.a).Handshake()
			tc.at(tc.a).Send(true, slpHandshake[:9])
			tc.status(3) // 20 records, past 1*stageJobs
			tc.at(tc.a).Close()
		}, Options{MaxHeld: 1}, []string{"4 Undissected bytes tcp"}, true},
		{"waiting too long", func(tc *twoConns) {
			tc.at(tc.a).Handshake()
			tc.at(tc.a).Send(true, slpHandshake[:9])
			tc.status()
			tc.at(tc.a).Close()
		}, Options{HoldWindow: 2 * time.Millisecond}, []string{"4 Undissected bytes tcp"}, true},
		{"a frame stamped an hour back has not waited an hour", func(tc *twoConns) {
			tc.at(tc.a).Handshake()
			tc.at(tc.a).Send(true, slpHandshake[:9])
			tc.at(tc.b).Handshake()
			tc.b.Now = tc.now.Add(-time.Hour) // its Handshake; the window is measured from when a job was made
			tc.b.Send(true, slpHandshake)
			tc.at(tc.b).Send(true, []byte{0x01, 0x00})
			tc.at(tc.b).Send(false, resp)
			ping := []byte{0x09, 0x01, 0, 0, 0, 0, 0, 0, 0x2e, 0x5d}
			tc.at(tc.b).Send(true, ping)
			tc.at(tc.b).Send(false, ping)
			tc.at(tc.b).Close()
			tc.at(tc.a).Close()
		}, Options{}, []string{"4 Undissected bytes tcp"}, false},
		{"a stream no protocol claims, left open: reported at its own last frame", func(tc *twoConns) {
			tc.at(tc.a).Handshake()
			tc.at(tc.a).Send(true, []byte("\xff garbage, claimed by no protocol of ours")) // 4
			tc.status()
			// The capture ends with a still open: before, its report took
			// b's last frame and headers, and without the hold it came
			// after b's records.
		}, Options{}, []string{"4 Undissected bytes tcp"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			capt := buildCapture(t, func(w *capgen.Writer) {
				tc := &twoConns{w: w, a: w.TCP(tcpClient, tcpServer, t0), b: w.TCP(netipPort(tcpClient, 40001), tcpServer, t0), now: t0}
				c.build(tc)
			})
			for _, o := range []Options{c.opts, {Parallel: true, Batch: 3, MaxHeld: c.opts.MaxHeld, HoldWindow: c.opts.HoldWindow}} {
				recs, a := runAll(t, capt, o)
				var got []string
				bPDUs := 0
				for _, r := range recs {
					if r.Src.Port() != tcpClient.Port() && r.Dst.Port() != tcpClient.Port() {
						if r.Kind == KindPDU {
							bPDUs++
						}
						continue
					}
					got = append(got, strconv.FormatUint(r.Frame, 10)+" "+r.PDU.Message+" "+r.Proto)
				}
				if bPDUs%5 != 0 || bPDUs == 0 {
					t.Errorf("%d PDUs of the other connections, want 5 each", bPDUs)
				}
				for _, w := range c.want {
					if !strings.Contains("|"+strings.Join(got, "|")+"|", "|"+w+"|") {
						t.Errorf("no record %q among %q", w, got)
					}
				}
				bad := inOrder(recs)
				if c.forced {
					if a.stage.forced == 0 {
						t.Errorf("no job passed on early, with %+v", o)
					}
					if bad == "" {
						t.Errorf("in order though a bound let records go early")
					}
					continue
				}
				if bad != "" {
					t.Errorf("%s; connection a: %q", bad, got)
				}
				if a.stage.forced != 0 {
					t.Errorf("%d jobs passed on early", a.stage.forced)
				}
			}
		})
	}
}

// TestReorderFlush: on live input, records wait for an earlier frame's
// undecided bytes no longer than the window: a Flush after the input was
// idle that long lets them go, and a Flush before does not.
func TestReorderFlush(t *testing.T) {
	capt := buildCapture(t, func(w *capgen.Writer) {
		tc := &twoConns{w: w, a: w.TCP(tcpClient, tcpServer, t0), b: w.TCP(netipPort(tcpClient, 40001), tcpServer, t0), now: t0}
		tc.at(tc.a).Handshake()
		tc.at(tc.a).Send(true, slpHandshake[:9]) // frame 4, held: the rest never comes
		tc.status()
	})
	for name := range pipelines(nil) {
		t.Run(name, func(t *testing.T) {
			l := newFlushLog()
			a := pipelines(l)[name]()
			src, err := OpenFile(bytes.NewReader(capt))
			if err != nil {
				t.Fatal(err)
			}
			for {
				p, err := src.Next()
				if err != nil {
					break
				}
				if err := a.Packet(p.Data, p.Info, p.LinkType); err != nil {
					t.Fatal(err)
				}
			}
			if err := a.Flush(0); err != nil {
				t.Fatal(err)
			}
			if got := l.next(t); hasFrame(got, 8) {
				t.Fatalf("a record of frame 8 was output while frame 4's bytes were undecided: %q", got)
			}
			if err := a.Flush(a.stageWindow + time.Second); err != nil {
				t.Fatal(err)
			}
			if got := l.next(t); !hasFrame(got, 8) {
				t.Fatalf("idle past the window, the later records are still held: %q", got)
			}
			if err := a.Finish(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
