package classic

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

func TestHeartbeatFraming(t *testing.T) {
	post := "POST /heartbeat.jsp HTTP/1.1\r\nHost: www.classicube.net\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 84\r\n\r\n" +
		"port=25565&max=16&name=Caf%C3%A9+server&public=False&version=7&salt=abcdefghijklmnop"
	chunked := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1a\r\nhttp://example.org/play/xy\r\n0\r\n\r\n"
	for _, tc := range []struct {
		name   string
		dir    dissect.Dir
		in     string
		status dissect.FrameStatus
		n      int
	}{
		{"post with body", dissect.DirC2S, post + "GET", dissect.FrameOK, len(post)},
		{"post body incomplete", dissect.DirC2S, post[:len(post)-1], dissect.FrameNeedMore, len(post)},
		{"http/0.9 request", dissect.DirC2S, "GET /heartbeat.jsp?port=1\r\nrest", dissect.FrameOK, 27},
		{"chunked response", dissect.DirS2C, chunked, dissect.FrameOK, len(chunked)},
		{"chunked incomplete", dissect.DirS2C, chunked[:len(chunked)-3], dissect.FrameNeedMore, 0},
		{"http/0.9 response", dissect.DirS2C, "http://x/play", dissect.FrameNeedMore, 0},
		{"close-delimited", dissect.DirS2C, "HTTP/1.0 200 OK\r\n\r\nhttp://x", dissect.FrameNeedMore, 0},
		{"head too long", dissect.DirC2S, "GET /heartbeat.jsp HTTP/1.1\r\n" + strings.Repeat("X: y\r\n", 4000), dissect.FrameLost, 0},
		{"body too long", dissect.DirS2C, "HTTP/1.1 200 OK\r\nContent-Length: 999999999\r\n\r\n", dissect.FrameLost, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewHeartbeat(nil).Frame(tc.dir, []byte(tc.in), false)
			if f.Status != tc.status || f.Status == dissect.FrameOK && f.Len != tc.n {
				t.Errorf("%+v, want %v %d", f, tc.status, tc.n)
			}
		})
	}
	if f := NewHeartbeat(nil).FrameAtEnd(dissect.DirS2C, []byte("http://x/play")); f.Status != dissect.FrameOK || f.Len != 13 {
		t.Errorf("FrameAtEnd: %+v", f)
	}
	// The POST decodes: URL-decoded UTF-8 name, '+' as space, salt from the body.
	sess := NewSession()
	var p dissect.PDU
	NewHeartbeat(sess).Decode(&p, []byte(post), dissect.Meta{Dir: dissect.DirC2S, Client: "192.0.2.7:5000", Frame: 4})
	if err := dissect.Check(&p); err != nil {
		t.Fatalf("%v\n%s", err, dumpTree(&p))
	}
	if i := p.Find("classic.heartbeat.name"); i < 0 || p.Nodes[i].Value.Text() != "Café server" {
		t.Errorf("name\n%s", dumpTree(&p))
	}
	if s, src, ok := sess.SaltFor("192.0.2.7:25565"); !ok || s != "abcdefghijklmnop" || !strings.Contains(src, "frame 4") {
		t.Errorf("salt %q %q", s, src)
	}
	if i := p.Find("classic.heartbeat.body"); i < 0 || p.Nodes[i].Flags&dissect.FlagSensitive == 0 {
		t.Error("body holding the salt not sensitive")
	}
	// The chunked response: the play URL joined from the chunks.
	NewHeartbeat(nil).Decode(&p, []byte(chunked), dissect.Meta{Dir: dissect.DirS2C})
	if err := dissect.Check(&p); err != nil {
		t.Fatalf("%v\n%s", err, dumpTree(&p))
	}
	if i := p.Find("classic.heartbeat.play_url"); i < 0 || p.Nodes[i].Value.Text() != "http://example.org/play/xy" {
		t.Errorf("play url\n%s", dumpTree(&p))
	}
	// An error status and a bad escape.
	NewHeartbeat(nil).Decode(&p, []byte("HTTP/1.1 503 Unavailable\r\nContent-Length: 0\r\n\r\n"), dissect.Meta{Dir: dissect.DirS2C})
	if !hasExpert(&p, ExpertHBStatus) {
		t.Error("no error status expert")
	}
	NewHeartbeat(nil).Decode(&p, []byte("GET /heartbeat.jsp?name=a%zz&salt=short\r\n"), dissect.Meta{Dir: dissect.DirC2S})
	if !hasExpert(&p, ExpertHBEncoding) || !hasExpert(&p, ExpertHBSalt) || !hasExpert(&p, ExpertHBMissing) {
		t.Errorf("experts\n%s", dumpTree(&p))
	}
	if !bytes.Contains([]byte(p.Info), []byte("HTTP/0.9")) {
		t.Errorf("info %q", p.Info)
	}
}

// TestHeartbeatAfterGap: after a gap, or where the capture starts inside
// a connection, a message is framed only where one starts.
func TestHeartbeatAfterGap(t *testing.T) {
	resp := "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"
	for _, tc := range []struct {
		name   string
		dir    dissect.Dir
		in     string
		status dissect.FrameStatus
		n      int
	}{
		{"heartbeat request", dissect.DirC2S, "GET /heartbeat.jsp?port=1 HTTP/1.1\r\n\r\n", dissect.FrameOK, 38},
		{"request cut short", dissect.DirC2S, "POST /heartb", dissect.FrameNeedMore, 0},
		{"other request", dissect.DirC2S, "GET /index.html HTTP/1.1\r\n\r\n", dissect.FrameLost, 0},
		{"request body", dissect.DirC2S, "port=25565&max=16", dissect.FrameLost, 0},
		{"response", dissect.DirS2C, resp, dissect.FrameOK, len(resp)},
		{"status line cut short", dissect.DirS2C, "HTT", dissect.FrameNeedMore, 0},
		{"response body", dissect.DirS2C, "http://x/play", dissect.FrameLost, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewHeartbeat(nil).Frame(tc.dir, []byte(tc.in), true)
			if f.Status != tc.status || f.Status == dissect.FrameOK && f.Len != tc.n {
				t.Errorf("%+v, want %v %d", f, tc.status, tc.n)
			}
		})
	}
	// The server's first bytes after a request framed start its response,
	// an HTTP/0.9 one too (it ends with the connection).
	h := NewHeartbeat(nil)
	if f := h.Frame(dissect.DirC2S, []byte("GET /heartbeat.jsp?port=1\r\n"), true); f.Status != dissect.FrameOK {
		t.Fatalf("request: %+v", f)
	}
	if f := h.Frame(dissect.DirS2C, []byte("http://x/play"), true); f.Status != dissect.FrameNeedMore {
		t.Errorf("HTTP/0.9 response after a request: %+v", f)
	}
	if f := h.FrameAtEnd(dissect.DirS2C, []byte("http://x/play")); f.Status != dissect.FrameOK || f.Len != 13 {
		t.Errorf("HTTP/0.9 response at the end: %+v", f)
	}
}

// hbRequest decodes one heartbeat request from 192.0.2.7 into a fresh
// session, as a whole PDU (wire == len) or cut at len(data) of wire bytes,
// and returns the PDU and the salt the session learned for port 25565.
func hbRequest(t *testing.T, data string, wire int) (*dissect.PDU, string) {
	t.Helper()
	sess := NewSession()
	var p dissect.PDU
	NewHeartbeat(sess).DecodeCut(&p, []byte(data), wire, dissect.Meta{Dir: dissect.DirC2S, Client: "192.0.2.7:5000", Frame: 4})
	if err := dissect.Check(&p); err != nil {
		t.Fatalf("%v\n%s", err, dumpTree(&p))
	}
	salt, _, _ := sess.SaltFor("192.0.2.7:25565")
	return &p, salt
}

// hbQuery is a heartbeat's parameters with n others before the salt.
func hbQuery(n int) string {
	var b strings.Builder
	b.WriteString("port=25565&max=8&name=x&public=True&version=7")
	for k := range n {
		b.WriteString("&p" + strconv.Itoa(k) + "=1")
	}
	return b.String() + "&salt=abcdefghijklmnop&users=0"
}

// TestHeartbeatManyParams: the salt after hundreds of parameters, in a
// query string and in a form body, is learned and is a secret.
func TestHeartbeatManyParams(t *testing.T) {
	for _, n := range []int{0, 255, 256, 300, 2000} {
		q := hbQuery(n)
		for _, tc := range []struct{ name, req string }{
			{"get", "GET /heartbeat.jsp?" + q + " HTTP/1.1\r\nHost: x\r\n\r\n"},
			{"post", "POST /heartbeat.jsp HTTP/1.1\r\nContent-Length: " + strconv.Itoa(len(q)) + "\r\n\r\n" + q},
		} {
			t.Run(tc.name+"/"+strconv.Itoa(n), func(t *testing.T) {
				p, salt := hbRequest(t, tc.req, len(tc.req))
				if salt != "abcdefghijklmnop" {
					t.Errorf("salt learned %q", salt)
				}
				si := p.Find("classic.heartbeat.salt")
				if si < 0 || p.Nodes[si].Flags&dissect.FlagSensitive == 0 || !strings.Contains(p.Info, "salt exposed") {
					t.Errorf("salt not found or not a secret: info %q", p.Info)
				}
				if strings.Count(p.Info, `"x"`) != 1 {
					t.Errorf("info %q", p.Info)
				}
			})
		}
	}
}

// chunkedPost is a POST whose form body q is sent in chunks cut at cuts.
func chunkedPost(q string, cuts ...int) string {
	var b strings.Builder
	b.WriteString("POST /heartbeat.jsp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
	prev := 0
	for _, c := range append(cuts, len(q)) {
		b.WriteString(strconv.FormatInt(int64(c-prev), 16) + "\r\n" + q[prev:c] + "\r\n")
		prev = c
	}
	return b.String() + "0\r\n\r\n"
}

// TestHeartbeatChunked: a chunked form body is read de-chunked, wherever a
// chunk boundary falls (inside the salt's value, inside "salt=", between
// pairs): the salt learned is the salt, every piece holding a byte of it
// is a secret, and a body cut short teaches no salt.
func TestHeartbeatChunked(t *testing.T) {
	q := hbQuery(0)
	at := strings.Index(q, "salt=")
	for _, tc := range []struct {
		name string
		cuts []int
	}{
		{"one chunk", nil},
		{"inside the value", []int{at + 5 + 5}},
		{"inside salt=", []int{at + 2}},
		{"between pairs", []int{at}},
		{"byte by byte", func() []int {
			var c []int
			for i := 1; i < len(q); i++ {
				c = append(c, i)
			}
			return c
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := chunkedPost(q, tc.cuts...)
			p, salt := hbRequest(t, req, len(req))
			if salt != "abcdefghijklmnop" {
				t.Fatalf("salt learned %q\n%s", salt, dumpTree(p))
			}
			for _, name := range []string{"classic.heartbeat.salt", "classic.heartbeat.dechunked", "classic.heartbeat.body"} {
				if i := p.Find(name); i < 0 || p.Nodes[i].Flags&dissect.FlagSensitive == 0 {
					t.Errorf("%s missing or not a secret\n%s", name, dumpTree(p))
				}
			}
			// Masked at the byte range, no byte of the salt is left.
			p.Redact()
			if rest := bytesOfSalt(p.Data); rest != "" {
				t.Errorf("after Redact the data still holds %q of the salt", rest)
			}
			// Cut inside the salt: decoded as far as it goes, nothing learned.
			cut := strings.Index(req, "mnop")
			if tc.cuts == nil || len(tc.cuts) > 1 {
				return
			}
			if _, salt := hbRequest(t, req[:cut], len(req)); salt != "" {
				t.Errorf("a salt cut short was learned: %q", salt)
			}
		})
	}
}

// bytesOfSalt is the salt "abcdefghijklmnop" of hbQuery as it shows in
// b, chunk framing between its bytes taken out ("" when no run of four of
// its bytes is left).
func bytesOfSalt(b []byte) string {
	const salt = "abcdefghijklmnop"
	for i := 0; i+4 <= len(salt); i++ {
		if bytes.Contains(b, []byte(salt[i:i+4])) {
			return salt[i : i+4]
		}
	}
	return ""
}
