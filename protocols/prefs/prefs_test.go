package prefs

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	_ "github.com/mcdissect/mcdissect/protocols/all"
)

// TestApply: tshark's preferences with the value mcdissect has, or refused
// saying why; mc.heuristics; a protocol's kept for Parse; mistakes in
// tshark's words.
func TestApply(t *testing.T) {
	for _, tc := range []struct {
		o, err string
		noHeur bool
	}{
		{"tcp.desegment_tcp_streams:TRUE", "", false},
		{"tcp.desegment_tcp_streams:FALSE", "mcdissect always reassembles TCP streams", false},
		{"tcp.check_checksum: false", "", false},
		{"udp.check_checksum:TRUE", "mcdissect checks no checksum", false},
		{"ip.check_checksum:yes", `"yes" is not TRUE or FALSE`, false},
		{"mc.heuristics:FALSE", "", true},
		{"mc.heuristics:TRUE", "", false},
		{"classic.salt:abc", "", false},
		{"classic.salt:", `-o flag "classic.salt:": an empty value`, false},
		{"nope", `invalid -o flag "nope"`, false},
		{"x.y:1", `-o flag "x.y:1" specifies unknown preference (mcdissect knows tcp.desegment_tcp_streams, `, false},
	} {
		t.Run(tc.o, func(t *testing.T) {
			var s Set
			err := s.Apply(tc.o)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("error %v, want %q", err, tc.err)
			}
			if s.NoHeuristics != tc.noHeur {
				t.Errorf("NoHeuristics %v", s.NoHeuristics)
			}
		})
	}
	var s Set
	s.Apply("classic.salt:wo6kVAHjxoJcInKx")
	if s.Protocol["classic.salt"] != "wo6kVAHjxoJcInKx" {
		t.Errorf("Protocol: %v", s.Protocol)
	}
}

// TestPrint: -o help lists every preference Names gives.
func TestPrint(t *testing.T) {
	var b bytes.Buffer
	Print(&b)
	names := Names()
	if len(names) < 7 {
		t.Fatalf("names: %v", names)
	}
	for _, n := range names {
		if !strings.Contains(b.String(), n+":") {
			t.Errorf("-o help does not list %s", n)
		}
	}
}

// TestParse: a File preference reads its file; an unknown name and a file
// that is not there are errors naming the preference.
func TestParse(t *testing.T) {
	if x, err := Parse("classic.salt", "wo6kVAHjxoJcInKx"); err != nil || x == nil {
		t.Errorf("classic.salt: %v, %v", x, err)
	}
	if _, err := Parse("x.y", "1"); err == nil || err.Error() != "x.y: no protocol takes this preference" {
		t.Errorf("x.y: %v", err)
	}
	if _, err := Parse("slp.keylog_file", filepath.Join(t.TempDir(), "none")); err == nil || !strings.HasPrefix(err.Error(), "slp.keylog_file: open ") {
		t.Errorf("a missing key log: %v", err)
	}
	f := filepath.Join(t.TempDir(), "keys")
	os.WriteFile(f, []byte("not a key log\n"), 0o644)
	if _, err := Parse("slp.keylog_file", f); err == nil || !strings.HasPrefix(err.Error(), "slp.keylog_file \""+f+"\": ") {
		t.Errorf("a bad key log: %v", err)
	}
}

// TestValues: the flags' values, then -o's over them; an empty flag is
// none; a value that does not parse is an error, a flag's too.
func TestValues(t *testing.T) {
	var s Set
	if v, err := s.Values([]FlagPref{{"--classic-salt", "classic.salt", ""}}); v != nil || err != nil {
		t.Errorf("nothing given: %v, %v", v, err)
	}
	v, err := s.Values([]FlagPref{{"--classic-salt", "classic.salt", "fromflag"}})
	if err != nil || len(v) != 1 || v["classic.salt"] == nil {
		t.Fatalf("a flag: %v, %v", v, err)
	}
	s.Apply("classic.salt:fromoption")
	v, err = s.Values([]FlagPref{{"--classic-salt", "classic.salt", "fromflag"}})
	want, _ := Parse("classic.salt", "fromoption")
	if err != nil || len(v) != 1 || !reflect.DeepEqual(v["classic.salt"], want) {
		t.Errorf("-o does not win over the flag: %v, %v", v, err)
	}
	// a flag's mistake names the flag as typed, not its preference
	if _, err := s.Values([]FlagPref{{"--keylog", "slp.keylog_file", filepath.Join(t.TempDir(), "none")}}); err == nil || !strings.HasPrefix(err.Error(), "--keylog: open ") {
		t.Errorf("a flag's key log that is not there: %v", err)
	}
	if _, err := s.Values([]FlagPref{{"--java-version", "slp.version", "1.99"}}); err == nil || !strings.HasPrefix(err.Error(), `--java-version "1.99": `) {
		t.Errorf("a flag's version that is not there: %v", err)
	}
}

// TestApplyAll: the options apply in order; the first mistake, or -o
// help, stops them.
func TestApplyAll(t *testing.T) {
	var s Set
	if err := s.ApplyAll([]string{"mc.heuristics:FALSE", "help", "no-colon"}); err != ErrHelp || !s.NoHeuristics {
		t.Errorf("%v, NoHeuristics %v", err, s.NoHeuristics)
	}
	if err := (&Set{}).ApplyAll([]string{"no-colon", "help"}); err == nil || err == ErrHelp {
		t.Errorf("a mistake before -o help: %v", err)
	}
	if err := (&Set{}).ApplyAll(nil); err != nil {
		t.Error(err)
	}
}
