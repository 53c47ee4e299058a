package render

import (
	"bytes"
	"fmt"
	"testing"
)

// TestJSONBatches: -T json and -T ek, which hold records until they pass
// the writer's buffer, write every record and raw bytes between them in
// order, and hand bytes on as they go, not only at the end.
func TestJSONBatches(t *testing.T) {
	recs := corpus(t)
	for _, format := range []string{"json", "ek"} {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			w := New(format, &out, Options{})
			a := NewAppender(format, Options{})
			if err := w.Begin(); err != nil {
				t.Fatal(err)
			}
			var want []byte
			if format == "json" {
				want = append(want, '[')
			}
			n := 0
			for i, r := range recs {
				if err := w.Record(r); err != nil {
					t.Fatal(err)
				}
				want = a.Append(want, r, n == 0)
				n++
				if i%97 == 0 {
					raw := fmt.Appendf(nil, ",\n  {\"raw\": %d}", i)
					if err := w.Raw(raw, 1); err != nil {
						t.Fatal(err)
					}
					want = append(want, raw...)
					n++
				}
				if len(want) > 3*64<<10 && out.Len() == 0 {
					t.Fatalf("%d bytes written, none reached the writer", len(want))
				}
			}
			if err := w.End(); err != nil {
				t.Fatal(err)
			}
			if format == "json" {
				want = append(want, "\n]\n"...)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Fatalf("written %d bytes, want %d", out.Len(), len(want))
			}
		})
	}
}
