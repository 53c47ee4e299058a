package filter

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// TestMOTDRule: the one rule of texts with formatting codes, on every
// sample. Each MOTD field (and Classic's texts with & codes) holds the
// text as sent and has one .plain child, the text without its codes; a
// filter reads either: X contains "§" finds the codes, X.plain never
// does, and the samples have MOTDs with codes in Query, SLP (status and
// legacy) and Classic.
func TestMOTDRule(t *testing.T) {
	fields := []string{"query.motd", "slp.legacy.motd", "slp.status.description", "raknet.pong.motd",
		"classic.motd", "classic.server_name", "classic.message", "classic.disconnect_reason"}
	files, _ := filepath.Glob("../samples/*.pcap")
	withCodes := map[string]int{}
	for _, file := range files {
		for _, r := range sample(t, filepath.Base(file)) {
			p := &r.PDU
			for i := range p.Nodes {
				n := &p.Nodes[i]
				name := n.Field.Name
				if !contains(fields, name) {
					continue
				}
				var plains []*dissect.Node
				for k := i + 1; k < len(p.Nodes) && p.Depth(int32(k)) > p.Depth(int32(i)); k++ {
					if c := &p.Nodes[k]; c.Parent == int32(i) && c.Field.Name == name+".plain" {
						plains = append(plains, c)
					}
				}
				if len(plains) != 1 {
					t.Errorf("%s frame %d: %s has %d .plain children", filepath.Base(file), r.Frame, name, len(plains))
					continue
				}
				v := string(n.Value.B)
				want := string(dissect.StripSection(nil, n.Value.B))
				if strings.HasPrefix(name, "classic.") {
					want = stripAmp(v)
				}
				if got := string(plains[0].Value.B); got != want {
					t.Errorf("%s frame %d: %s %q has .plain %q, want %q", filepath.Base(file), r.Frame, name, v, got, want)
				}
				if want != v {
					withCodes[strings.SplitN(name, ".", 2)[0]]++
				}
			}
		}
	}
	for _, proto := range []string{"query", "slp", "classic"} {
		if withCodes[proto] == 0 {
			t.Errorf("no %s text with codes in the samples: the test tests little", proto)
		}
	}
	t.Logf("texts with codes: %v", withCodes)
	for _, f := range []string{"query.motd", "slp.status.description", "slp.legacy.motd"} {
		codes, _ := Compile(f + ` contains "§"`)
		plain, _ := Compile(f + `.plain contains "§"`)
		both, _ := Compile(f + ` && ` + f + `.plain`)
		n, has := 0, 0
		for _, file := range files {
			for _, r := range sample(t, filepath.Base(file)) {
				if codes.Match(r) {
					n++
				}
				if plain.Match(r) {
					t.Errorf("%s.plain contains § in %s frame %d", f, filepath.Base(file), r.Frame)
				}
				if both.Match(r) {
					has++
				}
			}
		}
		if n == 0 || has == 0 {
			t.Errorf("%s contains \"§\" matches %d records, %s && %s.plain %d", f, n, f, f, has)
		}
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// stripAmp is Classic's colour codes taken out: & and a hex digit.
func stripAmp(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '&' && i+1 < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[i+1]) >= 0 {
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
