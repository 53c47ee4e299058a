package analyze

import (
	"os"
	"strings"
	"testing"
)

// TestFound: servers recognised by the heuristics off their protocol's
// port are reported, once per connection or datagram; those on their
// own port are not.
func TestFound(t *testing.T) {
	for _, tc := range []struct {
		sample string
		want   string // transport server protocol, or "" for none
	}{
		{"slp-status-msu.pcap", "tcp 127.0.0.1:25566 slp"},
		{"query-clients.pcap", "udp 127.0.0.1:25585 query"},
		{"query-25565.pcap", ""},
	} {
		t.Run(tc.sample, func(t *testing.T) {
			data, err := os.ReadFile("../samples/" + tc.sample)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]int{}
			if _, _, err := analyzeBytes(t, data, Options{OnFound: func(f Found) {
				seen[f.Transport+" "+f.Server.String()+" "+f.Protocol]++
			}}); err != nil {
				t.Fatal(err)
			}
			var got []string
			for k := range seen {
				got = append(got, k)
			}
			if tc.want == "" && len(got) > 0 || tc.want != "" && (len(got) != 1 || got[0] != tc.want) {
				t.Errorf("found %s, want %q", strings.Join(got, "; "), tc.want)
			}
		})
	}
}
