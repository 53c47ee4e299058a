package classic

import (
	"bytes"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

// TestCutPackets decodes every packet type cut at every byte (each field
// boundary and inside each field) with its wire length, as the pipeline
// decodes a packet cut by a gap or the connection's end: every field whose
// bytes are all there is decoded as in the whole packet, the field the cut
// falls in (the next one, on a boundary) is the one truncated failure, no
// bytes are called malformed, the expert item and the Info say how much
// of the packet there is, and a Lite decode on a twin connection
// summarises it the same.
func TestCutPackets(t *testing.T) {
	for i := range packetCases {
		tc := &packetCases[i]
		t.Run(tc.name, func(t *testing.T) {
			whole := decodeCase(t, tc, tc.data, len(tc.data))
			n := len(tc.data)
			for k := 1; k < n; k++ {
				p := decodeCase(t, tc, tc.data[:k], n)
				if p.Message != tc.msg {
					t.Fatalf("cut at %d: message %q, want %q", k, p.Message, tc.msg)
				}
				nf, last := dissect.CountFailures(p)
				if nf != 1 || last.Info != dissect.ExpertTruncated {
					t.Fatalf("cut at %d: %d failures, want one truncated\n%s", k, nf, dumpTree(p))
				}
				for _, e := range p.Experts {
					if e.Info == dissect.ExpertMalformed || e.Info == dissect.ExpertUndissected {
						t.Fatalf("cut at %d: %s: %s", k, e.Info.Name, e.Msg)
					}
				}
				want := "the packet was cut (by a gap or the connection's end): " + strconv.Itoa(k) + " of its " + strconv.Itoa(n) + " bytes captured"
				if !strings.HasSuffix(last.Msg, want) {
					t.Errorf("cut at %d: expert %q, want it to end %q", k, last.Msg, want)
				}
				if suffix := " [cut: " + strconv.Itoa(k) + " of " + strconv.Itoa(n) + " bytes]"; !strings.HasSuffix(p.Info, suffix) {
					t.Errorf("cut at %d: Info %q", k, p.Info)
				}
				// The Info makes up no value of a field that is not there
				// (a zero read from nothing): each number in it (but in
				// quoted texts, which may be cut) is one of the whole
				// packet's Info.
				info := strings.TrimSuffix(p.Info, " [cut: "+strconv.Itoa(k)+" of "+strconv.Itoa(n)+" bytes]")
				for _, num := range infoNumbers(info) {
					if !slices.Contains(infoNumbers(whole.Info), num) {
						t.Errorf("cut at %d: Info %q says %s, the whole packet's %q does not", k, p.Info, num, whole.Info)
					}
				}
				// The truncated field is the one the cut falls in.
				fn := &p.Nodes[last.Node]
				if fn.Flags&dissect.FlagTruncated == 0 || int(fn.Offset+fn.Length) != k {
					t.Fatalf("cut at %d: failure node %s [%d+%d] flags %x", k, fn.Name(), fn.Offset, fn.Length, fn.Flags)
				}
				switch fn.Field.Type {
				case dissect.FTUint, dissect.FTInt, dissect.FTFloat, dissect.FTBool:
					// a number cut short has no value to show (nor the raw
					// bytes a float's display would print as its text)
					if len(fn.Value.B) > 0 || fn.Value.N != 0 || !strings.HasPrefix(fn.Text, "cut short") {
						t.Errorf("cut at %d: %s cut short shows %q, value %+v", k, fn.Name(), dissecttest.Display(fn), fn.Value)
					}
				}
				if !spans(whole, fn.Field, int(fn.Offset), k) {
					t.Fatalf("cut at %d: %s at %d truncated, but the whole packet has no %s there spanning the cut\n%s", k, fn.Name(), fn.Offset, fn.Name(), dumpTree(whole))
				}
				// Every field the cut leaves whole is there, as decoded whole.
				for j := 1; j < len(whole.Nodes); j++ {
					w := &whole.Nodes[j]
					if w.Flags&dissect.FlagGenerated != 0 || w.Length == 0 || int(w.Offset+w.Length) > k || !leaf(whole, int32(j)) {
						continue
					}
					if par := &whole.Nodes[w.Parent]; w.Parent > 0 && int(par.Offset+par.Length) > k {
						continue // a part of a field the cut falls in (a string's text): that field is the one truncated
					}
					if !hasNode(p, w) {
						t.Fatalf("cut at %d: %s [%d+%d] = %s missing or different\n%s", k, w.Name(), w.Offset, w.Length, dissecttest.Display(w), dumpTree(p))
					}
				}
				// Lite on a twin connection: the same summary.
				var q dissect.PDU
				q.Lite = true
				tc.conn().DecodeCut(&q, tc.data[:k], n, meta(tc.dir))
				if a, b := summary(p), summary(&q); a != b {
					t.Fatalf("cut at %d: full %s\nlite %s", k, a, b)
				}
			}
		})
	}
}

var (
	quoted = regexp.MustCompile(`"[^"]*"?`)
	number = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?`)
)

// infoNumbers are the numbers of an Info, outside quoted texts.
func infoNumbers(info string) []string {
	return number.FindAllString(quoted.ReplaceAllString(info, ""), -1)
}

// spans reports whether p has a node of f at off that covers byte k (or
// starts there).
func spans(p *dissect.PDU, f *dissect.Field, off, k int) bool {
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if n.Field == f && int(n.Offset) == off && off <= k && k < off+int(n.Length) {
			return true
		}
	}
	return false
}

func leaf(p *dissect.PDU, i int32) bool {
	for j := range p.Nodes {
		if p.Nodes[j].Parent == i && p.Nodes[j].Flags&dissect.FlagGenerated == 0 {
			return false
		}
	}
	return true
}

func hasNode(p *dissect.PDU, w *dissect.Node) bool {
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if n.Field == w.Field && n.Offset == w.Offset && n.Length == w.Length && n.Flags == w.Flags && dissecttest.Display(n) == dissecttest.Display(w) {
			return true
		}
	}
	return false
}

// TestCutIdentificationOnly: an identification cut right after its ID is
// framed as 131 bytes (protocol 7) until its version byte says otherwise,
// so that the pipeline decodes it as cut.
func TestCutIdentificationOnly(t *testing.T) {
	for _, tc := range []struct {
		b    []byte
		want dissect.Frame
	}{
		{[]byte{0x00}, dissect.Frame{Status: dissect.FrameNeedMore, Len: 131}},
		{[]byte{0x00, 7}, dissect.Frame{Status: dissect.FrameNeedMore, Len: 131}},
		{[]byte{0x00, 5}, dissect.Frame{Status: dissect.FrameNeedMore, Len: 130}},
		{cat(0x00, 5, "a", "b"), dissect.Frame{Status: dissect.FrameOK, Len: 130}},
	} {
		if got := NewConn(nil).Frame(dissect.DirC2S, tc.b, false); got != tc.want {
			t.Errorf("Frame(% x…) = %+v, want %+v", tc.b[:2], got, tc.want)
		}
	}
}

// TestCutNoAllocationByWireLength: a cut packet's decoding allocates as
// much whatever wire length it is given (the wire length is never a size
// to allocate), and so does a heartbeat whose Content-Length promises
// 64 KiB of body the capture does not hold.
func TestCutNoAllocationByWireLength(t *testing.T) {
	alloc := func(f func()) uint64 {
		f() // warm: reused buffers grown
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		for range 20 {
			f()
		}
		runtime.ReadMemStats(&b)
		return (b.TotalAlloc - a.TotalAlloc) / 20
	}
	const limit = 16 << 10
	for i := range packetCases {
		tc := &packetCases[i]
		c := tc.conn()
		var p dissect.PDU
		data := tc.data[:len(tc.data)/2+1]
		if got := alloc(func() { c.DecodeCut(&p, data, 1<<30, meta(tc.dir)) }); got > limit {
			t.Errorf("%s: %d bytes a decode with a wire length of 1 GiB", tc.name, got)
		}
	}
	body := "port=25565&max=8&salt=" + strings.Repeat("a", 100)
	head := "POST /heartbeat.jsp HTTP/1.1\r\nContent-Length: 65536\r\n\r\n"
	h := NewHeartbeat(nil)
	var p dissect.PDU
	if got := alloc(func() { h.DecodeCut(&p, []byte(head+body), len(head)+65536, c2sMeta) }); got > limit {
		t.Errorf("heartbeat: %d bytes a decode of a cut 64 KiB body", got)
	}
}

var (
	cutSalt = "Hn3pQ7wXk2Lm9RtZ"
	cutBody = "port=25565&max=8&name=Cut&public=False&version=7&salt=" + cutSalt + "&users=0"
	cutPost = "POST /heartbeat.jsp HTTP/1.1\r\nHost: www.classicube.net\r\nContent-Length: " + strconv.Itoa(len(cutBody)) + "\r\n\r\n" + cutBody
	cutGet  = "GET /heartbeat.jsp?port=25565&max=8&name=Cut&public=False&version=7&salt=" + cutSalt + "&users=0 HTTP/1.1\r\nHost: minecraft.net\r\n\r\n"
	cutResp = "HTTP/1.1 200 OK\r\nContent-Length: 38\r\n\r\nhttp://www.classicube.net/server/play/"
)

// TestCutHeartbeat decodes heartbeat messages cut at every byte: one
// truncated failure, nothing malformed, the Info and the expert item say
// how much there is, a salt cut short is a secret (masked whole by Redact,
// no copy of it left in bytes, values, texts, Info or expert items) and is
// never learned, and Lite summarises the same.
func TestCutHeartbeat(t *testing.T) {
	for _, tc := range []struct {
		name string
		dir  dissect.Dir
		msg  string
	}{
		{"post", dissect.DirC2S, cutPost},
		{"get", dissect.DirC2S, cutGet},
		{"response", dissect.DirS2C, cutResp},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s0 := strings.Index(tc.msg, "salt=") + len("salt=")
			s1 := s0 + len(cutSalt)
			n := len(tc.msg)
			for k := 1; k < n; k++ {
				sess := NewSession()
				m := dissect.Meta{Dir: tc.dir, Client: "192.0.2.7:5000", Server: "203.0.113.1:80", Frame: 3}
				data := []byte(tc.msg[:k])
				var p dissect.PDU
				NewHeartbeat(sess).DecodeCut(&p, data, n, m)
				if err := dissect.Check(&p); err != nil {
					t.Fatalf("cut at %d: %v\n%s", k, err, dumpTree(&p))
				}
				nf, last := dissect.CountFailures(&p)
				if nf != 1 || last.Info != dissect.ExpertTruncated {
					t.Fatalf("cut at %d: %d failures, want one truncated\n%s", k, nf, dumpTree(&p))
				}
				if want := strconv.Itoa(k) + " of its " + strconv.Itoa(n) + " bytes captured"; !strings.Contains(last.Msg, "the message was cut") || !strings.HasSuffix(last.Msg, want) {
					t.Errorf("cut at %d: expert %q", k, last.Msg)
				}
				if fn := &p.Nodes[last.Node]; int(fn.Offset+fn.Length) != k {
					t.Errorf("cut at %d: truncated %s [%d+%d] does not end at the cut", k, fn.Name(), fn.Offset, fn.Length)
				}
				for _, e := range p.Experts {
					if e.Info == dissect.ExpertMalformed || e.Info == ExpertHBMissing || e.Info == ExpertHBSalt {
						t.Fatalf("cut at %d: %s: %s", k, e.Info.Name, e.Msg)
					}
				}
				if suffix := " [cut: " + strconv.Itoa(k) + " of " + strconv.Itoa(n) + " bytes]"; !strings.HasSuffix(p.Info, suffix) {
					t.Errorf("cut at %d: Info %q", k, p.Info)
				}
				if salt, _, ok := sess.SaltFor("203.0.113.9:25565"); ok && salt != cutSalt {
					t.Fatalf("cut at %d: learned the salt %q", k, salt)
				}
				var q dissect.PDU
				q.Lite = true
				NewHeartbeat(NewSession()).DecodeCut(&q, data, n, m)
				if a, b := summary(&p), summary(&q); a != b {
					t.Fatalf("cut at %d: full %s\nlite %s", k, a, b)
				}
				if tc.dir == dissect.DirC2S && k > s0 {
					checkMasked(t, "cut at "+strconv.Itoa(k), &p, s0, min(k, s1))
				}
			}
		})
	}
}

// checkMasked redacts p and checks that the secret at [lo, hi) of its
// bytes is masked there and left nowhere else: no piece of 4 bytes or more
// (as Redact looks for copies) in the bytes, values, texts, Info, Message
// and expert items.
func checkMasked(t *testing.T, what string, p *dissect.PDU, lo, hi int) {
	t.Helper()
	p.Data = bytes.Clone(p.Data) // Redact writes the bytes, and values view them
	secret := string(p.Data[lo:hi])
	if !p.Sensitive() {
		t.Fatalf("%s: %q not a secret\n%s", what, secret, dumpTree(p))
	}
	p.Redact()
	for i := lo; i < hi; i++ {
		if p.Data[i] != dissect.RedactByte {
			t.Fatalf("%s: byte %d of the secret not masked: %q", what, i, p.Data[lo:hi])
		}
	}
	if len(secret) < 4 {
		return
	}
	var texts []string
	for i := range p.Nodes {
		n := &p.Nodes[i]
		texts = append(texts, n.Text, n.Key, dissecttest.Display(n))
	}
	texts = append(texts, p.Info, p.Message, string(p.Data))
	for _, e := range p.Experts {
		texts = append(texts, e.Msg)
	}
	for _, s := range texts {
		if strings.Contains(strings.ToLower(s), strings.ToLower(secret)) {
			t.Fatalf("%s: %q shows in %q", what, secret, s)
		}
	}
}

// TestCutIdentificationRedact: an identification cut at every byte of its
// key, with the server's salt known: the piece of the key is a secret,
// masked whole, with no copy left; the key is checked only whole.
func TestCutIdentificationRedact(t *testing.T) {
	key := KeyFor(cutSalt, "alice")
	id := cat(0x00, 7, "alice", key, 0x42)
	for k := 67; k <= len(id); k++ {
		sess := NewSession()
		sess.SetSalt(cutSalt)
		var p dissect.PDU
		NewConn(sess).DecodeCut(&p, id[:k], len(id), c2sMeta)
		if err := dissect.Check(&p); err != nil {
			t.Fatal(err)
		}
		checked := p.Find("classic.key_valid") >= 0
		if checked != (k >= 130) {
			t.Fatalf("cut at %d: key checked %v\n%s", k, checked, dumpTree(&p))
		}
		if k >= 130 && !strings.Contains(p.Info, "key valid") {
			t.Errorf("cut at %d: Info %q", k, p.Info)
		}
		checkMasked(t, "cut at "+strconv.Itoa(k), &p, 66, min(k, 66+len(key)))
	}
}

// TestCutHeartbeatAtEnd: a message the connection's end cut where nothing
// gives its length (a request or response head without its empty line, a
// chunked body) is framed by FrameAtEnd as cut with its length unknown, and
// DecodeCut shows it as far as it goes, says so, and masks a piece of salt.
// A whole HTTP/0.9 response and a close-delimited body stay whole.
func TestCutHeartbeatAtEnd(t *testing.T) {
	chunked := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n26\r\nhttp://www.classicube.net/server/pl"
	for _, tc := range []struct {
		name string
		dir  dissect.Dir
		msg  string
		cut  bool
	}{
		{"get head", dissect.DirC2S, cutGet[:strings.Index(cutGet, "salt=")+9], true},
		{"get line without its end", dissect.DirC2S, "GET /heartbeat.jsp?port=25565&ma", true},
		{"post head", dissect.DirC2S, cutPost[:40], true},
		{"response head", dissect.DirS2C, cutResp[:20], true},
		{"chunked body", dissect.DirS2C, chunked, true},
		{"http/0.9 response", dissect.DirS2C, "http://www.classicube.net/server/play/", false},
		{"close-delimited body", dissect.DirS2C, "HTTP/1.0 200 OK\r\n\r\nhttp://x/play", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.msg)
			f := NewHeartbeat(nil).FrameAtEnd(tc.dir, data)
			if !tc.cut {
				if f.Status != dissect.FrameOK || f.Len != len(data) {
					t.Fatalf("FrameAtEnd %+v, want the whole message", f)
				}
				return
			}
			if f.Status != dissect.FrameNeedMore || f.Len-len(data) < wireUnknown {
				t.Fatalf("FrameAtEnd %+v, want cut with its length unknown", f)
			}
			m := dissect.Meta{Dir: tc.dir, Client: "192.0.2.7:5000", Server: "203.0.113.1:80", Frame: 3}
			var p dissect.PDU
			NewHeartbeat(NewSession()).DecodeCut(&p, data, f.Len, m)
			if err := dissect.Check(&p); err != nil {
				t.Fatal(err)
			}
			nf, last := dissect.CountFailures(&p)
			if nf != 1 || last.Info != dissect.ExpertTruncated || !strings.HasSuffix(last.Msg, "nothing says how many were due") {
				t.Fatalf("%d failures, last %q\n%s", nf, last.Msg, dumpTree(&p))
			}
			if suffix := " [cut: " + strconv.Itoa(len(data)) + " bytes, length unknown]"; !strings.HasSuffix(p.Info, suffix) {
				t.Errorf("Info %q", p.Info)
			}
			if s0 := strings.Index(tc.msg, "salt="); s0 >= 0 && s0+5 < len(data) {
				checkMasked(t, tc.name, &p, s0+5, len(data))
			}
		})
	}
}
