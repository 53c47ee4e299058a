package render

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestAppendRange: the byte range reads as fmt writes it, at every
// number of digits, past the short way's bound, and for numbers no node
// should hold (negative, huge), after text of every length (the room made
// for the range starts anywhere in a buffer).
func TestAppendRange(t *testing.T) {
	nums := []int32{0, 1, 9, 10, 42, 99, 100, 512, 999, 1000, 1234, 9999, 10000, 10001, 65535, 1 << 20, math.MaxInt32, -1, -10000, math.MinInt32}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		nums = append(nums, int32(rng.IntN(20000)))
	}
	for i, off := range nums {
		for j, n := range nums {
			if i > 20 && j > 20 && (i+j)%7 != 0 {
				continue
			}
			prefix := make([]byte, (i+j)%13, (i+j)%13+(i%30))
			got := string(appendRange(prefix, off, n))
			want := string(prefix) + fmt.Sprintf(" [off %d, len %d]", off, n)
			if got != want {
				t.Fatalf("appendRange(%d, %d) = %q, want %q", off, n, got, want)
			}
		}
	}
}

// TestTextBatches: records held back to be written in batches reach the
// writer in order with raw bytes between them, all of them by Flush, and
// once a batch is full without one.
func TestTextBatches(t *testing.T) {
	recs := corpus(t)
	var out bytes.Buffer
	w := New("text", &out, Options{Verbose: true})
	a := NewAppender("text", Options{Verbose: true})
	var want []byte
	atRaw, reached := 0, 0 // len(want) and out.Len() at the last Raw
	for i, r := range recs {
		if err := w.Record(r); err != nil {
			t.Fatal(err)
		}
		want = a.Append(want, r, false)
		if i%997 == 0 {
			raw := fmt.Appendf(nil, "raw %d\n", i)
			if err := w.Raw(raw, 0); err != nil {
				t.Fatal(err)
			}
			want = append(want, raw...)
			atRaw, reached = len(want), out.Len()
		}
		// past what the writer buffers (New: 64 KiB), records reach it
		// without a Raw or a Flush
		if len(want)-atRaw > 3*(64<<10) && out.Len() == reached {
			t.Fatalf("%d bytes of records since the last raw bytes, none reached the writer", len(want)-atRaw)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("written %d bytes, want %d", out.Len(), len(want))
	}
}

// TestSummaryStyledSame: the summary line written with a time format
// (-t) is the plain one when the format is the default's, ICMP records
// (no ports) included.
func TestSummaryStyledSame(t *testing.T) {
	plain := NewAppender("text", Options{})
	styled := NewAppender("text", Options{Time: "r"})
	for i, r := range corpus(t) {
		if got, want := styled.Append(nil, r, false), plain.Append(nil, r, false); !bytes.Equal(got, want) {
			t.Fatalf("record %d: with -t r\n%s\nwithout\n%s", i, got, want)
		}
	}
}
