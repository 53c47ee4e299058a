package filter

import (
	"strconv"
	"strings"
	"time"
)

// Absolute time literals, as Wireshark 4 reads them for FT_ABSOLUTE_TIME
// fields (frame.time): ISO 8601 or the legacy month-day-year form, with or
// without fractions of a second and a zone:
//
//	"2026-11-22T10:19:40"  "2026-11-22 10:19:40.5Z"  "2026-11-22T10:19+01:00"  "2026-11-22"
//	"Nov 22, 2026 10:19:40"  "Nov 22, 2026 10:19:40.123456789 UTC"
//
// ISO 8601 takes a T or spaces between date and time, seconds and a
// fraction (. or ,) optional, and a zone right after the time: Z, +hh,
// +hhmm or +hh:mm; a date alone is its midnight. The legacy form needs the
// seconds, a fraction of at most nine digits, and takes only UTC as a
// zone, after a space (the ISO form takes that too). Without a zone a time
// is local time, as in tshark. Fractions past the nanosecond are dropped.
// Unlike tshark, which lets mktime move them on, days that do not exist
// (February 30) are errors; a 60th second (a leap second) is the next
// minute's first, as there.

// timeErr is what is wrong with a time literal: a message, and the bytes
// of the literal it is about (from, to), or the whole literal when to is 0.
type timeErr struct {
	from, to int
	msg      string
}

// timeExample ends the message for a literal that is no time at all.
const timeExample = `Example: "Nov 12, 1999 08:55:44.123" or "2011-07-04 12:34:56"`

var monthNames = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// timeScanner reads a literal left to right.
type timeScanner struct {
	s string
	i int
}

func (p *timeScanner) spaces() int {
	n := 0
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
		n++
	}
	return n
}

// digits reads from lo to hi decimal digits; ok is false (and nothing is
// read) when fewer than lo are there.
func (p *timeScanner) digits(lo, hi int) (v, from int, ok bool) {
	from = p.i
	j := p.i
	for j < len(p.s) && j-p.i < hi && p.s[j] >= '0' && p.s[j] <= '9' {
		v = v*10 + int(p.s[j]-'0')
		j++
	}
	if j-p.i < lo {
		return 0, from, false
	}
	p.i = j
	return v, from, true
}

func (p *timeScanner) byte(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// parseAbsTime reads an absolute time literal; loc is the zone of a time
// written without one (time.Local). It returns nanoseconds since 1970.
func parseAbsTime(s string, loc *time.Location) (int64, *timeErr) {
	p := &timeScanner{s: s}
	p.spaces()
	notTime := &timeErr{msg: strconv.Quote(s) + " is not a valid absolute time. " + timeExample}
	if p.i < len(s) && (s[p.i] >= 'a' && s[p.i] <= 'z' || s[p.i] >= 'A' && s[p.i] <= 'Z') {
		return p.legacy(loc, notTime)
	}
	return p.iso(loc, notTime)
}

// fields of a time being read, and where each was, for errors.
type timeParts struct {
	year, month, day, hour, min, sec, nsec int
	at                                     [6][2]int // year .. sec: from, to in the literal
}

func (p *timeScanner) iso(loc *time.Location, notTime *timeErr) (int64, *timeErr) {
	var t timeParts
	var ok bool
	var from int
	if t.year, from, ok = p.digits(4, 4); !ok || !p.byte('-') {
		return 0, notTime
	}
	t.at[0] = [2]int{from, from + 4}
	if t.month, from, ok = p.digits(1, 2); !ok || !p.byte('-') {
		return 0, notTime
	}
	t.at[1] = [2]int{from, p.i - 1}
	if t.day, from, ok = p.digits(1, 2); !ok {
		return 0, notTime
	}
	t.at[2] = [2]int{from, p.i}
	date := p.i
	if p.spaces(); p.i == len(p.s) {
		return t.instant(p.s, loc)
	}
	p.i = date
	if !p.byte('T') && p.spaces() == 0 {
		return 0, p.trailing()
	}
	if t.hour, from, ok = p.digits(1, 2); !ok {
		return 0, p.trailing()
	}
	t.at[3] = [2]int{from, p.i}
	if !p.byte(':') {
		return 0, p.trailing()
	}
	if t.min, from, ok = p.digits(1, 2); !ok {
		return 0, p.trailing()
	}
	t.at[4] = [2]int{from, p.i}
	if p.byte(':') {
		if t.sec, from, ok = p.digits(1, 2); !ok {
			return 0, p.trailing()
		}
		t.at[5] = [2]int{from, p.i}
		if p.i < len(p.s) && (p.s[p.i] == '.' || p.s[p.i] == ',') {
			p.i++
			if e := p.fraction(&t, false); e != nil {
				return 0, e
			}
		}
	}
	switch {
	case p.byte('Z'):
		loc = time.UTC
	case p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-'):
		start := p.i
		sign := 1
		if p.s[p.i] == '-' {
			sign = -1
		}
		p.i++
		h, _, ok := p.digits(2, 2)
		if !ok {
			p.i = start
			return 0, p.trailing()
		}
		m := 0
		colon := p.byte(':')
		if mm, _, ok := p.digits(2, 2); ok {
			m = mm
		} else if colon {
			p.i = start
			return 0, p.trailing()
		}
		if h > 23 || m > 59 {
			return 0, &timeErr{from: start, to: p.i, msg: "The zone offset " + p.s[start:p.i] + " is out of range (at most ±23:59)."}
		}
		loc = time.FixedZone(p.s[start:p.i], sign*(h*3600+m*60))
	default:
		if z, ok := p.utc(); ok {
			loc = z
		}
	}
	if p.spaces(); p.i != len(p.s) {
		return 0, p.trailing()
	}
	return t.instant(p.s, loc)
}

func (p *timeScanner) legacy(loc *time.Location, notTime *timeErr) (int64, *timeErr) {
	var t timeParts
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] >= 'a' && p.s[p.i] <= 'z' || p.s[p.i] >= 'A' && p.s[p.i] <= 'Z') {
		p.i++
	}
	name := strings.ToLower(p.s[start:p.i])
	for m, n := range monthNames {
		if name == n {
			t.month = m + 1
		}
	}
	if t.month == 0 {
		return 0, notTime
	}
	t.at[1] = [2]int{start, p.i}
	var ok bool
	var from int
	p.spaces()
	if t.day, from, ok = p.digits(1, 2); !ok || !p.byte(',') {
		return 0, notTime
	}
	t.at[2] = [2]int{from, p.i - 1}
	p.spaces()
	if t.year, from, ok = p.digits(4, 4); !ok {
		return 0, notTime
	}
	t.at[0] = [2]int{from, p.i}
	if p.spaces() == 0 {
		return 0, notTime
	}
	for k, f := range []*int{&t.hour, &t.min, &t.sec} {
		if k > 0 && !p.byte(':') {
			return 0, notTime
		}
		if *f, from, ok = p.digits(1, 2); !ok {
			return 0, notTime
		}
		t.at[3+k] = [2]int{from, p.i}
	}
	if p.byte('.') {
		if e := p.fraction(&t, true); e != nil {
			return 0, e
		}
	}
	if z, ok := p.utc(); ok {
		loc = z
	}
	if p.spaces(); p.i != len(p.s) {
		return 0, p.trailing()
	}
	return t.instant(p.s, loc)
}

// fraction reads the digits after the decimal point: at most nine in the
// legacy form, any number in ISO 8601 (those past the ninth dropped).
func (p *timeScanner) fraction(t *timeParts, legacy bool) *timeErr {
	dot := p.i - 1
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		if p.i-start < 9 {
			t.nsec = t.nsec*10 + int(p.s[p.i]-'0')
		}
		p.i++
	}
	n := p.i - start
	if n == 0 {
		return &timeErr{from: dot, to: dot + 1, msg: "Subseconds value is not a number: write digits after the point, as in 10:19:40.5."}
	}
	if legacy && n > 9 {
		return &timeErr{from: start, to: p.i, msg: "Subseconds value is invalid: at most nine digits, to the nanosecond."}
	}
	for ; n < 9; n++ {
		t.nsec *= 10
	}
	return nil
}

// utc reads " UTC" (one space or more, then UTC), the zone both forms
// take after the time.
func (p *timeScanner) utc() (*time.Location, bool) {
	at := p.i
	if p.spaces() > 0 && strings.HasPrefix(p.s[p.i:], "UTC") {
		p.i += 3
		return time.UTC, true
	}
	p.i = at
	return nil, false
}

// trailing is the error for what follows a time that could be read.
func (p *timeScanner) trailing() *timeErr {
	from := p.i
	for from < len(p.s) && p.s[from] == ' ' {
		from++
	}
	if from >= len(p.s) {
		return &timeErr{msg: strconv.Quote(p.s) + " is not a whole time: write at least the hour and minutes, as in \"2026-11-22 10:19\"."}
	}
	return &timeErr{from: from, to: len(p.s), msg: "Unexpected data after time value: " + strconv.Quote(p.s[from:]) + " (a zone goes right after the time: Z, +01:00, +0100, or \" UTC\")."}
}

// instant checks the parts' ranges and makes the time.
func (t *timeParts) instant(s string, loc *time.Location) (int64, *timeErr) {
	bad := func(k int, what string, v int, rng string) (int64, *timeErr) {
		return 0, &timeErr{from: t.at[k][0], to: t.at[k][1], msg: what + " " + strconv.Itoa(v) + " is out of range (" + rng + ") in " + strconv.Quote(s) + "."}
	}
	switch {
	case t.month < 1 || t.month > 12:
		return bad(1, "Month", t.month, "1 to 12")
	case t.day < 1 || t.day > daysIn(t.year, t.month):
		return bad(2, "Day", t.day, "1 to "+strconv.Itoa(daysIn(t.year, t.month))+" in "+time.Month(t.month).String()+" "+strconv.Itoa(t.year))
	case t.hour > 23:
		return bad(3, "Hour", t.hour, "0 to 23")
	case t.min > 59:
		return bad(4, "Minute", t.min, "0 to 59")
	case t.sec > 60:
		return bad(5, "Second", t.sec, "0 to 60")
	}
	return time.Date(t.year, time.Month(t.month), t.day, t.hour, t.min, t.sec, t.nsec, loc).UnixNano(), nil
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
