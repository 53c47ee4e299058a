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
	prefix []byte // sec formatted with made
	layout string // textLayout when empty, or isoLayout
	made   string // the layout prefix was made with, "" before the first
}

// The layouts of a stampCache's date and time of day.
const (
	textLayout = "2006-01-02 15:04:05"
	isoLayout  = "2006-01-02T15:04:05"
)

// appendStamp appends t in UTC in the cache's layout, then the
// nanoseconds: "2006-01-02 15:04:05.000000000".
func (c *stampCache) appendStamp(dst []byte, t time.Time) []byte {
	t = t.UTC()
	c.at(t)
	dst = append(dst, c.prefix...)
	dst = append(dst, '.')
	return dissect.AppendUintPad(dst, uint64(t.Nanosecond()), 9)
}

// at makes prefix t's (t in UTC).
func (c *stampCache) at(t time.Time) {
	layout := c.layout
	if layout == "" {
		layout = textLayout
	}
	if s := t.Unix(); s != c.sec || c.made != layout {
		c.prefix = t.AppendFormat(c.prefix[:0], layout)
		c.sec, c.made = s, layout
	}
}

// date returns t's date in UTC, "2006-01-02", as t.UTC().AppendFormat
// would write it: the prefix (textLayout or isoLayout) without its
// separator and "15:04:05". It is valid until the next call.
func (c *stampCache) date(t time.Time) []byte {
	c.at(t.UTC())
	return c.prefix[:len(c.prefix)-len(" 15:04:05")]
}

// appendAbsTime appends the instant ns nanoseconds after 1970 as
// dissect.AppendAbsTime does; the cache keeps that layout.
func (c *stampCache) appendAbsTime(dst []byte, ns int64) []byte {
	c.layout = dissect.AbsTimeLayout
	dst = c.appendStamp(dst, time.Unix(0, ns))
	return append(dst, " UTC"...)
}
