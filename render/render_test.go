package render

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/dissect/query"
	"github.com/mcdissect/mcdissect/record"
)

// evilRecord decodes a basic stat response whose MOTD carries a terminal
// escape sequence, a bell and a bidirectional override.
func evilRecord(t *testing.T) *record.Record {
	t.Helper()
	data := []byte("\x00\x00\x00\x00\x01\x1b[2J\x07evil\u202eMOTD\x00SMP\x00world\x002\x0020\x00\xdd\x63127.0.0.1\x00")
	r := &record.Record{Frame: 7, Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Rel: 1500 * time.Millisecond,
		Src: netip.MustParseAddrPort("10.0.0.2:25565"), Dst: netip.MustParseAddrPort("10.0.0.1:40000"), Stream: -1, Proto: "query"}
	query.Decode(&r.PDU, data, len(data), dissect.DirS2C)
	// The frame's IPv4 and UDP headers, on a raw IP link.
	head := []byte{
		0x45, 0, 0, 77, 0x12, 0x34, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 2, 10, 0, 0, 1,
		0x63, 0xdd, 0x9c, 0x40, 0, 57, 0, 0,
	}
	r.SetLayers(head, &netlayers.Frame{Number: 7, Time: r.Time, Rel: r.Rel,
		WireLen: 77, CapLen: 77, Link: netlayers.LinkRaw, Protocols: "query", Stream: -1,
		Client: r.Dst})
	return r
}

func render(t *testing.T, format string, o Options, r *record.Record) string {
	t.Helper()
	var b bytes.Buffer
	w := New(format, &b, o)
	w.Begin()
	if err := w.Record(r); err != nil {
		t.Fatal(err)
	}
	w.End()
	return b.String()
}

// TestNoRawControlBytes: whatever the wire holds, no renderer writes a
// control byte other than newline and tab to the output.
func TestNoRawControlBytes(t *testing.T) {
	r := evilRecord(t)
	for _, c := range []struct {
		format string
		o      Options
	}{
		{"text", Options{}},
		{"text", Options{Verbose: true, Hex: true}},
		{"json", Options{}},
	} {
		out := render(t, c.format, c.o, r)
		for i := 0; i < len(out); i++ {
			if b := out[i]; b < 0x20 && b != '\n' && b != '\t' || b == 0x7f {
				t.Errorf("%s %+v: raw byte %#x at %d", c.format, c.o, b, i)
				break
			}
		}
		if strings.Contains(out, "\u202e") {
			t.Errorf("%s: raw bidi override", c.format)
		}
	}
}

func TestSummaryAndTree(t *testing.T) {
	r := evilRecord(t)
	out := render(t, "text", Options{Verbose: true}, r)
	for _, want := range []string{
		"    7    1.500000 10.0.0.2:25565 → 10.0.0.1:40000 Query ",
		"Frame 7: 77 bytes on wire (616 bits), 77 bytes captured (616 bits), 2026-01-02 03:04:05.000000000 UTC, UDP, server → client",
		"Internet Protocol Version 4, Src: 10.0.0.2, Dst: 10.0.0.1",
		"User Datagram Protocol, Src Port: 25565, Dst Port: 40000",
		`\x1b[2J\x07evil\u{202e}MOTD`,
		"Host port: 25565 (little-endian) [off ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

func TestJSONIsValidAndTyped(t *testing.T) {
	out := render(t, "json", Options{}, evilRecord(t))
	var recs []struct {
		Frame int    `json:"frame"`
		Proto string `json:"protocol"`
		Tree  struct {
			Name     string `json:"name"`
			Children []struct {
				Name   string `json:"name"`
				Offset int    `json:"offset"`
				Length int    `json:"length"`
				Value  any    `json:"value"`
			} `json:"children"`
		} `json:"tree"`
	}
	if err := json.Unmarshal([]byte(out), &recs); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(recs) != 1 || recs[0].Frame != 7 || recs[0].Tree.Name != "query" {
		t.Fatalf("%+v", recs)
	}
	for _, c := range recs[0].Tree.Children {
		if c.Name == "query.hostport" {
			if v, ok := c.Value.(float64); !ok || v != 25565 {
				t.Errorf("hostport value %v (%T), want the number 25565", c.Value, c.Value)
			}
			return
		}
	}
	t.Error("no query.hostport")
}

func TestFields(t *testing.T) {
	var refs []record.FieldRef
	for _, n := range []string{"frame.number", "mc.message", "query.hostport", "query.motd", "ip.src", "udp.dstport", "tcp.stream"} {
		f, err := record.ResolveField(n)
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, f)
	}
	out := render(t, "fields", Options{Fields: refs, Header: true}, evilRecord(t))
	want := "frame.number\tmc.message\tquery.hostport\tquery.motd\tip.src\tudp.dstport\ttcp.stream\n" +
		"7\tBasic Stat Response\t25565\t\\x1b[2J\\x07evil\\u{202e}MOTD\t10.0.0.2\t40000\t\n"
	if out != want {
		t.Errorf("got\n%q\nwant\n%q", out, want)
	}
}

func TestHexDumpCoversEveryByte(t *testing.T) {
	r := evilRecord(t)
	out := render(t, "text", Options{Hex: true}, r)
	total := 0
	for _, l := range strings.Split(out, "\n")[1:] {
		if len(l) < 54 || l[4] != ' ' {
			continue
		}
		total += len(strings.Fields(l[6:54]))
	}
	if total != len(r.PDU.Data) {
		t.Errorf("the dump shows %d bytes of %d:\n%s", total, len(r.PDU.Data), out)
	}
}

func TestRedact(t *testing.T) {
	r := evilRecord(t)
	r.PDU.Nodes[len(r.PDU.Nodes)-1].Flags |= dissect.FlagSensitive // hostip, as if it were a secret
	for _, f := range []string{"text", "json"} {
		out := render(t, f, Options{Verbose: true, Hex: true, Redact: true}, r)
		if strings.Contains(out, "127.0.0.1") || !strings.Contains(out, "<redacted>") {
			t.Errorf("%s: sensitive value shown:\n%s", f, out)
		}
	}
}

// TestSummaryAllocatesNothing: writing a summary line costs no allocation
// once the renderer's buffer has grown.
func TestSummaryAllocatesNothing(t *testing.T) {
	r := evilRecord(t)
	var buf []byte
	n := testing.AllocsPerRun(100, func() { buf = AppendSummary(buf[:0], r) })
	if n != 0 {
		t.Errorf("%v allocations per summary line", n)
	}
}

// The integer seconds formatting prints what %.6f of the float would.
func TestAppendSeconds(t *testing.T) {
	for _, d := range []time.Duration{0, 1, 499, 500 * time.Microsecond, 999_999_000, time.Second, 61*time.Second + 123456*time.Microsecond,
		-time.Millisecond, -400, 3*time.Hour + 7, 1234567891011 * time.Microsecond, 1_000_001_499} {
		got := string(appendSeconds(nil, d))
		want := strconv.FormatFloat(d.Seconds(), 'f', 6, 64)
		if want == "-0.000000" {
			want = "0.000000"
		}
		if got != want {
			t.Errorf("%d ns: %s, want %s", int64(d), got, want)
		}
	}
}

// The cached time stamp prints what time.Format prints, across seconds,
// days and time zones, for text and JSON.
func TestStampCache(t *testing.T) {
	var text, js stampCache
	js.layout = isoLayout
	zone := time.FixedZone("X", 5*3600+1800)
	base := time.Date(2024, 8, 9, 23, 59, 58, 999999999, time.UTC)
	for i, d := range []time.Duration{0, 1, 2, time.Second, 1500 * time.Millisecond, 3 * time.Second, -time.Hour, 0} {
		tm := base.Add(d)
		if i%2 == 1 {
			tm = tm.In(zone)
		}
		if got, want := string(text.appendStamp(nil, tm)), tm.UTC().Format("2006-01-02 15:04:05.000000000"); got != want {
			t.Errorf("text %v: %s, want %s", tm, got, want)
		}
		if got, want := string(js.appendStamp(nil, tm)), tm.UTC().Format("2006-01-02T15:04:05.000000000"); got != want {
			t.Errorf("json %v: %s, want %s", tm, got, want)
		}
	}
}
