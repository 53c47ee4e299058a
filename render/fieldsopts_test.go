package render

import (
	"strings"
	"testing"
)

// TestSetFieldsOption: each -E option sets its field of Options, tshark's
// escapes read; mistakes name the option.
func TestSetFieldsOption(t *testing.T) {
	for _, tc := range []struct {
		opt  string
		want Options
		err  string
	}{
		{"header=y", Options{Header: true}, ""},
		{"header=yes", Options{Header: true}, ""},
		{"header=n", Options{}, ""},
		{"header=maybe", Options{}, `-E header="maybe": choose y or n`},
		{"header=", Options{}, `-E header="": choose y or n`},
		{"separator=", Options{}, `-E separator=: give a character`},
		{"aggregator=", Options{}, `-E aggregator=: give a character`},
		{"separator=/t", Options{Separator: "\t"}, ""},
		{"separator=/s", Options{Separator: " "}, ""},
		{"separator=,", Options{Separator: ","}, ""},
		{"aggregator=/s", Options{Aggregator: " "}, ""},
		{"occurrence=f", Options{Occurrence: 'f'}, ""},
		{"occurrence=l", Options{Occurrence: 'l'}, ""},
		{"occurrence=first", Options{Occurrence: 'f'}, ""},
		{"occurrence=2", Options{Occurrence: 'a', OccurrenceN: 2}, ""},
		{"occurrence=-1", Options{Occurrence: 'a', OccurrenceN: -1}, ""},
		{"occurrence=0", Options{}, `-E occurrence="0": choose a (all)`},
		{"occurrence=x", Options{}, `-E occurrence="x": choose a (all)`},
		{"quote=d", Options{Quote: '"'}, ""},
		{"quote=s", Options{Quote: '\''}, ""},
		{"quote=dd", Options{Quote: '"'}, ""},
		{"quote=q", Options{}, `-E quote="q": choose d, s or n`},
		{"bom=y", Options{}, `-E "bom=y": unknown option`},
	} {
		t.Run(tc.opt, func(t *testing.T) {
			var o Options
			err := o.SetFieldsOption(tc.opt)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if o.Header != tc.want.Header || o.Separator != tc.want.Separator || o.Aggregator != tc.want.Aggregator ||
				o.Occurrence != tc.want.Occurrence || o.OccurrenceN != tc.want.OccurrenceN || o.Quote != tc.want.Quote {
				t.Errorf("%+v, want %+v", o, tc.want)
			}
		})
	}
}
