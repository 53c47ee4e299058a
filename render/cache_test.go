package render

import (
	"bytes"
	"testing"
)

// TestCachesChangeNothing: an appender that has formatted every record
// before (its caches of address pairs, line heads and JSON field heads
// full, with clashes, and -T ek's member names) writes each record as a new appender does.
func TestCachesChangeNothing(t *testing.T) {
	recs := corpus(t)
	for _, c := range []struct {
		format string
		o      Options
	}{
		{"text", Options{}},
		{"text", Options{Verbose: true, Hex: true}},
		{"json", Options{}},
		{"ek", Options{}},
	} {
		warm := NewAppender(c.format, c.o)
		for i, r := range recs {
			warm.Append(nil, r, i == 0)
		}
		for i, r := range recs {
			got := warm.Append(nil, r, i == 0)
			if want := NewAppender(c.format, c.o).Append(nil, r, i == 0); !bytes.Equal(got, want) {
				t.Fatalf("%s %+v, record %d: cached\n%s\nfresh\n%s", c.format, c.o, i, got, want)
			}
		}
	}
}
