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
		b := append([]byte(tc.prefix), tc.in...)
		if got := string(f.quote(b, len(tc.prefix))); got != tc.want {
			t.Errorf("quote %q of %q: %s, want %s", tc.q, tc.in, got, tc.want)
		}
	}
}
