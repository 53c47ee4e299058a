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
	if s := t.Unix(); !c.valid || s != c.sec {
		layout := "2006-01-02 15:04:05"
		if c.sep == 'T' {
			layout = "2006-01-02T15:04:05"
		}
		c.prefix = t.AppendFormat(c.prefix[:0], layout)
		c.sec, c.valid = s, true
	}
	dst = append(dst, c.prefix...)
	dst = append(dst, '.')
	return dissect.AppendUintPad(dst, uint64(t.Nanosecond()), 9)
}
