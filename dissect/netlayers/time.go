package netlayers

import (
	"time"

	"github.com/mcdissect/mcdissect/dissect"
)

// AppendSeconds9 appends d in seconds with nine decimals, as tshark prints
// frame.time_relative and frame.time_delta: exact, from the integer
// nanoseconds, never through a float.
func AppendSeconds9(dst []byte, d time.Duration) []byte {
	ns := int64(d)
	if ns < 0 {
		dst = append(dst, '-')
		ns = -ns // a Duration's minimum is not a capture's delta
	}
	dst = dissect.AppendInt(dst, ns/1e9)
	dst = append(dst, '.')
	return dissect.AppendUintPad(dst, uint64(ns%1e9), 9)
}

// AppendEpoch9 appends t as seconds since the epoch with nine decimals, as
// tshark prints frame.time_epoch.
func AppendEpoch9(dst []byte, t time.Time) []byte {
	s, ns := t.Unix(), t.Nanosecond()
	if s < 0 && ns > 0 { // -0.5 s is Unix -1 and 500000000 ns
		dst = append(dst, '-')
		return AppendSeconds9(dst, time.Duration(-s)*time.Second-time.Duration(ns))
	}
	dst = dissect.AppendInt(dst, s)
	dst = append(dst, '.')
	return dissect.AppendUintPad(dst, uint64(ns), 9)
}

// AppendFrameTime appends t as tshark writes frame.time in UTC:
// "Nov 22, 2026 14:33:00.357623000 UTC".
func AppendFrameTime(dst []byte, t time.Time) []byte { return dissect.AppendAbsTime(dst, t) }
