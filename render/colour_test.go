package render

import (
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/record"
)

func TestColourise(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"go-mc §6status§r server", "go-mc \x1b[33m§6status\x1b[0m§r server\x1b[0m"},
		{"&aClassic &lbold", "\x1b[92m&aClassic \x1b[1m&lbold\x1b[0m"},
		{"§zno code & no code", "§zno code & no code"},
		{"[green]Hello [reset]world [not a colour]", "\x1b[92m[green]Hello \x1b[0m[reset]world [not a colour]\x1b[0m"},
		{`\x1b[31mPWNED`, `\x1b[31mPWNED`}, // an escaped ESC: its [31m is not a colour name
		{"§", "§"},
		{"&", "&"},
	} {
		prefix := []byte("> ")
		b := append(prefix, c.in...)
		got, _ := colourise(b, len(prefix), nil)
		if string(got) != "> "+c.want {
			t.Errorf("colourise(%q) = %q, want %q", c.in, got[2:], c.want)
		}
	}
}

func TestTimeColumn(t *testing.T) {
	ts := time.Date(2026, 2, 3, 4, 5, 6, 789123456, time.UTC)
	r := &record.Record{Time: ts, Rel: 1500 * time.Millisecond, DeltaShown: 250 * time.Microsecond}
	r.SetLayers(nil, &netlayers.Frame{Number: 1, Time: ts, Delta: 42 * time.Microsecond, Stream: -1})
	for _, c := range []struct{ format, want string }{
		{"", "1.500000"}, {"r", "1.500000"}, {"u", "04:05:06.789123"}, {"ud", "2026-02-03 04:05:06.789123"},
		{"e", "1770091506.789123"}, {"d", "0.000042"}, {"dd", "0.000250"},
	} {
		if got := string(appendTimeColumn(nil, r, c.format)); got != c.want {
			t.Errorf("-t %q: %q, want %q", c.format, got, c.want)
		}
	}
	r.Reset()
	if got := string(appendTimeColumn(nil, r, "d")); got != "" {
		t.Errorf("-t d without the frame's layers: %q", got)
	}
}
