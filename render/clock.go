package render

import (
	"time"

	"github.com/mcdissect/mcdissect/dissect"
)

// stampCache formats capture times: the date and time of day change once
// a second while a capture holds thousands of packets a second, so that
// part is formatted once per second and only the nanoseconds each time.
type stampCache struct {
	sec    int64
	prefix []byte // "2006-01-02 15:04:05" (or with T) of sec
	sep    byte   // ' ' for text, 'T' for JSON
	valid  bool
}

// appendStamp appends t in UTC as "2006-01-02<sep>15:04:05.000000000".
func (c *stampCache) appendStamp(dst []byte, t time.Time) []byte {
	t = t.UTC()
	c.at(t)
	dst = append(dst, c.prefix...)
	dst = append(dst, '.')
	return dissect.AppendUintPad(dst, uint64(t.Nanosecond()), 9)
}

// at makes prefix t's (t in UTC).
func (c *stampCache) at(t time.Time) {
	if s := t.Unix(); !c.valid || s != c.sec {
		layout := "2006-01-02 15:04:05"
		if c.sep == 'T' {
			layout = "2006-01-02T15:04:05"
		}
		c.prefix = t.AppendFormat(c.prefix[:0], layout)
		c.sec, c.valid = s, true
	}
}

// date returns t's date in UTC, "2006-01-02", as t.UTC().AppendFormat
// would write it: the prefix without its separator and "15:04:05". It is
// valid until the next call.
func (c *stampCache) date(t time.Time) []byte {
	c.at(t.UTC())
	return c.prefix[:len(c.prefix)-len(" 15:04:05")]
}
