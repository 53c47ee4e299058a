package filter

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/record"
)

func TestParseAbsTime(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	at := func(s string) int64 {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UnixNano()
	}
	for _, c := range []struct {
		in   string
		want string // RFC 3339 instant, or "" for an error
		bad  string // for an error: the part of the literal it is about ("" for all of it)
		msg  string // and what its message says
	}{
		{"2026-11-22T10:19:40", "2026-11-22T10:19:40+01:00", "", ""},
		{"2026-11-22 10:19:40", "2026-11-22T10:19:40+01:00", "", ""},
		{"  2026-11-22   10:19:40  ", "2026-11-22T10:19:40+01:00", "", ""},
		{"2026-11-22T10:19:40Z", "2026-11-22T10:19:40Z", "", ""},
		{"2026-11-22 10:19:40 UTC", "2026-11-22T10:19:40Z", "", ""},
		{"2026-11-22T10:19:40.5Z", "2026-11-22T10:19:40.5Z", "", ""},
		{"2026-11-22T10:19:40,25Z", "2026-11-22T10:19:40.25Z", "", ""},
		{"2026-11-22T10:19:40.123456789Z", "2026-11-22T10:19:40.123456789Z", "", ""},
		{"2026-11-22T10:19:40.1234567891Z", "2026-11-22T10:19:40.123456789Z", "", ""},
		{"2026-11-22T10:19:40+05:30", "2026-11-22T10:19:40+05:30", "", ""},
		{"2026-11-22T10:19:40-0800", "2026-11-22T10:19:40-08:00", "", ""},
		{"2026-11-22T10:19:40+01", "2026-11-22T10:19:40+01:00", "", ""},
		{"2026-11-22T10:19", "2026-11-22T10:19:00+01:00", "", ""},
		{"2026-11-22T10:19Z", "2026-11-22T10:19:00Z", "", ""},
		{"2026-11-22", "2026-11-22T00:00:00+01:00", "", ""},
		{"2026-1-2T3:4:5Z", "2026-01-02T03:04:05Z", "", ""},
		{"2026-11-22T10:19:60Z", "2026-11-22T10:20:00Z", "", ""},
		{"2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "", ""},
		{"Nov 22, 2026 10:19:40", "2026-11-22T10:19:40+01:00", "", ""},
		{"nov  22, 2026 10:19:40", "2026-11-22T10:19:40+01:00", "", ""},
		{"Nov 22, 2026 10:19:40.123456", "2026-11-22T10:19:40.123456+01:00", "", ""},
		{"Nov 22, 2026 10:19:40.357623000 UTC", "2026-11-22T10:19:40.357623Z", "", ""},
		{"Nov  2, 2026 01:02:03 UTC", "2026-11-02T01:02:03Z", "", ""},
		{"Nov 22, 2026 10:19:40 ", "2026-11-22T10:19:40+01:00", "", ""},

		{"foo", "", "", `"foo" is not a valid absolute time. Example:`},
		{"", "", "", "is not a valid absolute time"},
		{"1795342780", "", "", "is not a valid absolute time"},
		{"Nov 22, 2026", "", "", "is not a valid absolute time"},
		{"November 22, 2026 10:19:40", "", "", "is not a valid absolute time"},
		{"Nov 22 2026 10:19:40", "", "", "is not a valid absolute time"},
		{"Nov 22, 2026 10:19", "", "", "is not a valid absolute time"},
		{"26-11-22T10:19:40", "", "", "is not a valid absolute time"},
		{"20261122T101940", "", "", "is not a valid absolute time"},
		{"2026-11-22T10", "", "", "is not a whole time"},
		{"2026-11-22T", "", "", "is not a whole time"},
		{"2026-13-22T10:19:40", "", "13", "Month 13 is out of range"},
		{"2026-02-29T10:19:40", "", "29", "Day 29 is out of range (1 to 28 in February 2026)"},
		{"2026-11-31", "", "31", "Day 31 is out of range"},
		{"Feb 30, 2026 10:00:00", "", "30", "Day 30 is out of range"},
		{"Foo 3, 2026 10:00:00", "", "", "is not a valid absolute time"},
		{"2026-11-22T24:00:00", "", "24", "Hour 24 is out of range"},
		{"Nov 22, 2026 25:00:00", "", "25", "Hour 25 is out of range"},
		{"2026-11-22T10:60", "", "60", "Minute 60 is out of range"},
		{"2026-11-22T10:19:61", "", "61", "Second 61 is out of range"},
		{"2026-11-22 10:19:40 +0100", "", "+0100", "Unexpected data after time value"},
		{"2026-11-22T10:19:40 Z", "", "Z", "Unexpected data after time value"},
		{"2026-11-22T10:19:40+01:00:00", "", ":00", "Unexpected data after time value"},
		{"2026-11-22T10:19:40+1", "", "+1", "Unexpected data after time value"},
		{"2026-11-22T10:19:40+24:00", "", "+24:00", "zone offset +24:00 is out of range"},
		{"2026-11-22x", "", "x", "Unexpected data after time value"},
		{"Nov 22, 2026 10:19:40 CET", "", "CET", "Unexpected data after time value"},
		{"Nov 22, 2026 10:19:40 UTC x", "", "x", "Unexpected data after time value"},
		{"Nov 22, 2026 10:19:40Z", "", "Z", "Unexpected data after time value"},
		{"Nov 22, 2026 10:19:40.", "", ".", "Subseconds value is not a number"},
		{"2026-11-22T10:19:40.Z", "", ".", "Subseconds value is not a number"},
		{"Nov 22, 2026 10:19:40.1234567891", "", "1234567891", "Subseconds value is invalid"},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := parseAbsTime(c.in, paris)
			if c.want != "" {
				if err != nil {
					t.Fatalf("error %q", err.msg)
				}
				if want := at(c.want); got != want {
					t.Fatalf("got %v, want %v", time.Unix(0, got).UTC(), time.Unix(0, want).UTC())
				}
				return
			}
			if err == nil {
				t.Fatalf("got %v, want an error", time.Unix(0, got).UTC())
			}
			if !strings.Contains(err.msg, c.msg) {
				t.Errorf("message %q, want it to say %q", err.msg, c.msg)
			}
			if bad := ""; err.to > 0 {
				bad = c.in[err.from:err.to]
				if bad != c.bad {
					t.Errorf("the error is about %q, want %q", bad, c.bad)
				}
			} else if c.bad != "" {
				t.Errorf("the error is about the whole literal, want %q", c.bad)
			}
		})
	}
}

// TestTimeErrorCaret: the caret is under the bad part of a time literal,
// quoted or not, and under the whole literal when escapes make its text
// differ from its source.
func TestTimeErrorCaret(t *testing.T) {
	for _, c := range []struct{ expr, under string }{
		{`frame.time >= "foo"`, `"foo"`},
		{`frame.time >= "2026-13-22 10:19:40"`, `13`},
		{`frame.time >= 2026-13-22`, `13`},
		{`frame.time >= r"2026-11-22 10:19:40 +0100"`, `+0100`},
		{`frame.time >= "2026-11-22 10:19:40 \x2b0100"`, `"2026-11-22 10:19:40 \x2b0100"`},
		{`frame.time in {"2026-11-22" .. "2026-11-32"}`, `32`},
		{`frame.time == 'a'`, `'a'`},
		{`frame.time contains "2026"`, `frame.time`},
		{`frame.time matches "2026"`, `frame.time`},
		{`frame.time & 1`, `frame.time`},
		{`frame.time[0] == 1`, `frame.time`},
		{`frame.time == frame.time_epoch`, `frame.time == frame.time_epoch`},
		{`len(frame.time) > 1`, `frame.time`},
	} {
		t.Run(c.expr, func(t *testing.T) {
			_, err := Compile(c.expr)
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a filter error", err)
			}
			if got := c.expr[fe.Pos:fe.End]; got != c.under {
				t.Errorf("caret under %q, want %q\n%v", got, c.under, err)
			}
		})
	}
}

// TestTimeAgreesWithEpoch: on every sample capture, for instants at,
// just before, just after and between its records' times, frame.time
// compared with the instant in each literal form keeps the same records
// as frame.time_epoch compared with its seconds, and as the record times
// themselves.
func TestTimeAgreesWithEpoch(t *testing.T) {
	local := time.Local
	defer func() { time.Local = local }()
	// A zone that is not UTC, and not a whole number of hours, so that a
	// literal read in the wrong zone misses.
	time.Local = time.FixedZone("IST", 5*3600+30*60)
	files, _ := filepath.Glob("../samples/*.pcap")
	if len(files) == 0 {
		t.Skip("no sample captures")
	}
	forms := map[string]func(time.Time) string{
		"iso Z":     func(v time.Time) string { return `"` + v.UTC().Format("2006-01-02T15:04:05.000000000Z") + `"` },
		"iso space": func(v time.Time) string { return `"` + v.UTC().Format("2006-01-02 15:04:05.000000000") + ` UTC"` },
		"iso -0700": func(v time.Time) string {
			return `"` + v.In(time.FixedZone("", -7*3600)).Format("2006-01-02T15:04:05.000000000-07:00") + `"`
		},
		"iso local":     func(v time.Time) string { return v.In(time.Local).Format("2006-01-02T15:04:05.000000000") },
		"legacy UTC":    func(v time.Time) string { return `"` + v.UTC().Format("Jan _2, 2006 15:04:05.000000000") + ` UTC"` },
		"legacy local":  func(v time.Time) string { return `"` + v.In(time.Local).Format("Jan 2, 2006 15:04:05.000000000") + `"` },
		"shown as -T f": func(v time.Time) string { return `"` + string(netlayers.AppendFrameTime(nil, v)) + `"` },
	}
	formNames := make([]string, 0, len(forms))
	for k := range forms {
		formNames = append(formNames, k)
	}
	slices.Sort(formNames)
	ops := []string{"==", "!=", "<", "<=", ">", ">="}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			recs := sample(t, name)
			var times []time.Time
			for _, r := range recs {
				times = append(times, r.Time)
			}
			slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
			var instants []time.Time
			for _, q := range []int{0, len(times) / 4, len(times) / 2, 3 * len(times) / 4, len(times) - 1} {
				v := times[q]
				instants = append(instants, v, v.Add(-time.Nanosecond), v.Add(time.Nanosecond))
				if q+1 < len(times) {
					instants = append(instants, v.Add(times[q+1].Sub(v)/2))
				}
			}
			checked := 0
			for _, v := range instants {
				epoch := string(netlayers.AppendEpoch9(nil, v))
				for _, op := range ops {
					byEpoch := keep(t, recs, "frame.time_epoch "+op+" "+epoch)
					var want []int
					for i, r := range recs {
						if holds(r.Time.Compare(v), op) {
							want = append(want, i)
						}
					}
					if !slices.Equal(byEpoch, want) {
						t.Fatalf("frame.time_epoch %s %s keeps %d records, the record times %d", op, epoch, len(byEpoch), len(want))
					}
					for _, form := range formNames {
						expr := "frame.time " + op + " " + forms[form](v)
						if got := keep(t, recs, expr); !slices.Equal(got, byEpoch) {
							t.Fatalf("%s (%s) keeps %d records, frame.time_epoch %s %s keeps %d", expr, form, len(got), op, epoch, len(byEpoch))
						}
						checked++
					}
				}
			}
			t.Logf("%d filters on %d records", checked, len(recs))
		})
	}
}

// keep is the indexes of the records expr keeps.
func keep(t *testing.T, recs []*record.Record, expr string) []int {
	t.Helper()
	f, err := Compile(expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	var out []int
	for i, r := range recs {
		if f.Match(r) {
			out = append(out, i)
		}
	}
	return out
}

func holds(c int, op string) bool {
	switch op {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

func TestCmpDecimal(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"1795342882.642325000", "1795342882.642325", 0},
		{"1795342882.642325001", "1795342882.642325", 1},
		{"1795342882.642324999", "1795342882.642325", -1},
		{"-0.5", "0", -1},
		{"-0", "0.000", 0},
		{"-1.5", "-1.25", -1},
		{"10", "9.999999999", 1},
		{"007", "7.0", 0},
		{".5", "0.5", 0},
	} {
		if got, ok := cmpDecimal([]byte(c.a), []byte(c.b)); !ok || got != c.want {
			t.Errorf("cmpDecimal(%s, %s) = %d, %v; want %d", c.a, c.b, got, ok, c.want)
		}
	}
	for _, s := range []string{"1e9", "", ".", "-", "1.2.3", "0x10", "inf"} {
		if _, ok := cmpDecimal([]byte(s), []byte("1")); ok {
			t.Errorf("cmpDecimal(%q) is a decimal", s)
		}
	}
}
