package render

import (
	"bytes"
	"net/netip"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/query"
	"github.com/mcdissect/mcdissect/record"
)

// fullStat decodes a full stat response listing two players.
func fullStat(t *testing.T) *record.Record {
	t.Helper()
	data := []byte("\x00\x00\x00\x00\x01splitnum\x00\x80\x00hostname\x00A Server\x00numplayers\x002\x00\x00\x01player_\x00\x00alice\x00bob\x00\x00")
	r := &record.Record{Frame: 9, Src: netip.MustParseAddrPort("10.0.0.2:25565"), Dst: netip.MustParseAddrPort("10.0.0.1:40000"), Stream: -1, Proto: "query"}
	query.Decode(&r.PDU, data, len(data), dissect.DirS2C)
	return r
}

func field(t *testing.T, name string) *dissect.Field {
	f, _, ok := dissect.LookupField(name)
	if !ok {
		t.Fatalf("no field %s", name)
	}
	return f
}

// TestExplainTree: with Explain, each field's explanation is under its
// first line of a record, wrapped, and its worked value under every line.
func TestExplainTree(t *testing.T) {
	r := evilRecord(t)
	out := render(t, "text", Options{Verbose: true, Explain: true}, r)
	lines := strings.Split(out, "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "Host port: 25565") {
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("no host port line:\n%s", out)
	}
	// The explanation's lines, re-joined, are the field's Desc.
	var desc []string
	i := at + 1
	for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "| "); i++ {
		desc = append(desc, strings.TrimPrefix(strings.TrimSpace(lines[i]), "| "))
	}
	if got, want := strings.Join(desc, " "), field(t, "query.hostport").Desc; got != want {
		t.Errorf("explanation under the host port:\n%q\nwant\n%q", got, want)
	}
	if want := "        = dd 63 read little-endian, low byte first = 0x63×256 + 0xdd = 25565"; !strings.HasPrefix(lines[i], want) {
		t.Errorf("worked line %q, want prefix %q", lines[i], want)
	}
	for _, l := range lines {
		if strings.Contains(l, "| ") && utf8.RuneCountInString(l) > explainWidth && strings.Contains(strings.TrimSpace(l)[2:], " ") {
			t.Errorf("explanation line over %d columns: %q", explainWidth, l)
		}
	}
	if plain := render(t, "text", Options{Verbose: true}, r); strings.Contains(plain, "| ") || strings.Contains(plain, "= dd 63") {
		t.Errorf("explanations without Explain:\n%s", plain)
	}
}

// TestExplainOncePerRecord: a field explained once a record, again in the
// next record; worked values under every node.
func TestExplainOncePerRecord(t *testing.T) {
	var b bytes.Buffer
	w := New("text", &b, Options{Verbose: true, Explain: true})
	w.Begin()
	for range 2 {
		if err := w.Record(fullStat(t)); err != nil {
			t.Fatal(err)
		}
	}
	w.End()
	out := b.String()
	first := strings.SplitN(field(t, "query.player").Desc, " ", 6)
	head := "| " + strings.Join(first[:5], " ")
	if n := strings.Count(out, head); n != 2 {
		t.Errorf("the player explanation shows %d times in two records of two players each, want 2:\n%s", n, out)
	}
	if n := strings.Count(out, "Player: "); n != 4 {
		t.Errorf("%d player lines, want 4", n)
	}
}

// TestExplainRedacted: a masked node shows no arithmetic of its bytes.
func TestExplainRedacted(t *testing.T) {
	r := evilRecord(t)
	for i := range r.PDU.Nodes {
		if r.PDU.Nodes[i].Field.Name == "query.hostport" {
			r.PDU.Nodes[i].Flags |= dissect.FlagSensitive
		}
	}
	out := render(t, "text", Options{Verbose: true, Explain: true, Redact: true}, r)
	if strings.Contains(out, "dd 63") || !strings.Contains(out, "<redacted>") {
		t.Errorf("worked value of a redacted node shown:\n%s", out)
	}
}

func TestAppendWrapped(t *testing.T) {
	for _, c := range []struct {
		text string
		d    int
		want string
	}{
		{"short text.", 1, "    | short text.\n"},
		{strings.Repeat("abcd ", 30) + "end.", 0,
			"| " + strings.TrimSpace(strings.Repeat("abcd ", 19)) + "\n| " + strings.TrimSpace(strings.Repeat("abcd ", 11)) + " end.\n"},
		{strings.Repeat("x", 120) + " tail.", 0, "| " + strings.Repeat("x", 120) + "\n| tail.\n"},
	} {
		if got := string(appendWrapped(nil, c.text, c.d, "| ")); got != c.want {
			t.Errorf("appendWrapped(%q) =\n%q\nwant\n%q", c.text, got, c.want)
		}
	}
}

// TestExplainCorpus: on every record of every sample, --explain adds
// only "| " and "= " lines to the tree, and no worked value is empty or
// writes a control byte.
func TestExplainCorpus(t *testing.T) {
	for _, r := range corpus(t) {
		plain := render(t, "text", Options{Verbose: true}, r)
		out := render(t, "text", Options{Verbose: true, Explain: true}, r)
		var kept []string
		for _, l := range strings.Split(out, "\n") {
			s := strings.TrimSpace(l)
			switch {
			case s == "=" || s == "|":
				t.Errorf("frame %d: empty explanation line", r.Frame)
			case strings.HasPrefix(s, "| "), strings.HasPrefix(s, "= "):
				for _, c := range []byte(l) {
					if c < 0x20 || c == 0x7f {
						t.Errorf("frame %d: control byte in %q", r.Frame, l)
					}
				}
			default:
				kept = append(kept, l)
			}
		}
		if strings.Join(kept, "\n") != plain {
			t.Fatalf("frame %d: --explain changed the tree", r.Frame)
		}
	}
}
