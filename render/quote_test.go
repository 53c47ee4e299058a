package render

import "testing"

// TestQuote: -E quote wraps a field and doubles the quote character inside
// it, so a separator or quote in a value cannot split the line's fields.
func TestQuote(t *testing.T) {
	for _, tc := range []struct {
		q          byte
		prefix, in string
		want       string
	}{
		{'"', "", "abc", `"abc"`},
		{'"', "x,", `say "hi", bob`, `x,"say ""hi"", bob"`},
		{'"', "", "", `""`},
		{'\'', "1\t", "it's", "1\t'it''s'"},
		{0, "", `a"b`, `a"b`},
	} {
		f := &fieldsRenderer{o: Options{Quote: tc.q}}
		b := f.openQuote([]byte(tc.prefix))
		mark := len(b)
		b = f.closeQuote(append(b, tc.in...), mark)
		if got := string(b); got != tc.want {
			t.Errorf("quote %q of %q: %s, want %s", tc.q, tc.in, got, tc.want)
		}
		// A piece at a time, as Append quotes occurrences: the same.
		b = f.openQuote([]byte(tc.prefix))
		for i := range len(tc.in) {
			mark := len(b)
			b = f.doubleQuotes(append(b, tc.in[i]), mark)
		}
		if got := string(f.closeQuote(b, len(b))); got != tc.want {
			t.Errorf("quote %q of %q, a byte at a time: %s, want %s", tc.q, tc.in, got, tc.want)
		}
	}
}
