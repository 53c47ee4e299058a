package render

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// values is every occurrence of a field in r, as text.
func values(t *testing.T, r *record.Record, name string) []string {
	ref, err := record.ResolveField(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ref.Each(r, func(n *dissect.Node) {
		switch ref.Field.Type {
		case dissect.FTUint, dissect.FTFrameNum, dissect.FTBool:
			out = append(out, fmt.Sprint(n.Value.N))
		case dissect.FTFloat:
			out = append(out, string(n.Value.B))
		case dissect.FTAbsTime:
			out = append(out, fmt.Sprint(n.Value.Int()))
		default:
			out = append(out, fmt.Sprintf("%x", n.Value.B))
		}
	})
	return out
}

// TestPageDerive: each rule by which the page makes a pseudo-field itself
// (derive) gives the field's values, on every record of every sample.
func TestPageDerive(t *testing.T) {
	files, _ := filepath.Glob("../samples/*.pcap")
	if len(files) == 0 {
		t.Skip("no samples")
	}
	names := make([]string, 0, len(derive))
	for n := range derive {
		names = append(names, n)
	}
	slices.Sort(names)
	type rule struct {
		R     string `json:"r"`
		Both  []string
		Bit   []any
		Epoch string
	}
	rules := map[string]rule{}
	for _, n := range names {
		var r rule
		if err := json.Unmarshal([]byte(derive[n]), &r); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		rules[n] = r
	}
	checked := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		src, err := analyze.OpenFile(f)
		if err != nil {
			t.Fatal(err)
		}
		emit := func(r *record.Record) error {
			for _, name := range names {
				rl := rules[name]
				var want []string
				switch {
				case rl.R == "f":
					want = []string{fmt.Sprint(r.Frame)}
				case rl.R == "k":
					want = []string{fmt.Sprintf("%x", r.Proto)}
				case rl.R == "dir":
					want = []string{fmt.Sprintf("%x", r.PDU.Dir.String())}
				case rl.R == "m":
					if r.PDU.Message != "" {
						want = []string{fmt.Sprintf("%x", r.PDU.Message)}
					}
				case rl.R == "st":
					if r.TCP { // the page's st is -1 for UDP
						want = []string{fmt.Sprint(r.Stream)}
					}
				case rl.R == "e":
					for _, e := range r.PDU.Experts {
						want = append(want, fmt.Sprintf("%x", e.Info.Name))
					}
				case rl.R == "parts":
					for _, p := range r.Parts {
						want = append(want, fmt.Sprint(p.Frame))
					}
				case rl.Both != nil:
					want = append(values(t, r, rl.Both[0]), values(t, r, rl.Both[1])...)
				case rl.Bit != nil:
					for _, v := range values(t, r, rl.Bit[0].(string)) {
						var n uint64
						fmt.Sscan(v, &n)
						want = append(want, fmt.Sprint(b2u(n&uint64(rl.Bit[1].(float64)) != 0)))
					}
				case rl.Epoch != "":
					for _, v := range values(t, r, rl.Epoch) {
						var ns int64
						fmt.Sscan(v, &ns)
						want = append(want, fmt.Sprintf("%d.%09d", ns/1e9, ns%1e9))
					}
				default:
					t.Fatalf("%s: no rule", name)
				}
				if got := values(t, r, name); !slices.Equal(got, want) {
					t.Errorf("%s, frame %d: %s is %q, its rule %s gives %q", filepath.Base(file), r.Frame, name, got, derive[name], want)
				}
				checked++
			}
			return nil
		}
		if _, err := analyze.Run(src, analyze.New(analyze.Options{}, analyze.SinkFunc(emit))); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	t.Logf("%d values checked", checked)
}

func b2u(b bool) int {
	if b {
		return 1
	}
	return 0
}
