package classic

import (
	"math"
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
)

// Display formatters for the fields every movement packet carries. They
// run only when a tree is printed (dissect.Field.Custom), so the summary
// path, which sees hundreds of thousands of position updates in a busy
// capture, does not format three coordinates and two angles per packet.
func init() {
	for _, f := range []*dissect.Field{FieldX, FieldY, FieldZ} {
		f.Custom = appendFixed
	}
	for _, f := range []*dissect.Field{FieldDX, FieldDY, FieldDZ} {
		f.Custom = appendDelta
	}
	FieldYaw.Custom = appendYaw
	FieldPitch.Custom = appendPitch
	FieldFeetY.Custom = appendFeet
}

// frac32 is the decimal fraction of k/32 for k < 32, "" for 0: exact, as
// strconv's shortest form of such a number is.
var frac32 = func() (t [32]string) {
	for k := 1; k < 32; k++ {
		t[k] = strconv.FormatFloat(float64(k)/32, 'f', -1, 64)[1:] // ".03125"
	}
	return
}()

// appendFixed32 appends raw/32 as strconv.AppendFloat(raw/32, 'f', -1)
// would: a multiple of 1/32 below 2^48 has an exact decimal form of at
// most five fraction digits, which is its shortest. Coordinates go through
// here many times a packet, so the general float formatter is avoided.
func appendFixed32(b []byte, raw int64) []byte {
	u := uint64(raw)
	if raw < 0 {
		b = append(b, '-')
		u = -u
	}
	b = dissect.AppendUint(b, u>>5)
	return append(b, frac32[u&31]...)
}

// appendFloat is strconv.AppendFloat(b, v, 'f', -1, 64), through
// appendFixed32 when v is a multiple of 1/32: fixed-point coordinates and
// deltas are, and so are angles (a byte × 360/256 = a byte × 45/32).
func appendFloat(b []byte, v float64) []byte {
	if r, ok := times32(v); ok {
		return appendFixed32(b, r)
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// times32 returns v×32 when it is an integer below 2^48 in magnitude (and v
// is not −0): then v prints through appendFixed32, and the raw value it
// came from is at hand without rounding.
func times32(v float64) (int64, bool) {
	r := v * 32
	i := int64(r)
	return i, float64(i) == r && i < 1<<48 && i > -1<<48 && (i != 0 || !math.Signbit(v))
}

// appendFeet shows the feet height under a teleport's eye-level Y.
func appendFeet(b []byte, n *dissect.Node) []byte {
	b = appendFloat(b, n.Value.Float())
	return append(b, " blocks: Y is eye level, the feet are 51/32 = 1.59375 blocks lower"...)
}

// appendFixed shows a coordinate stored in blocks with the fixed-point
// short it came from: "8.125 blocks (fixed point 260 ÷ 32)". The raw value
// is exact: a multiple of 1/32 is exact in a float64.
func appendFixed(b []byte, n *dissect.Node) []byte {
	return appendScaled(b, n.Value.Float(), " blocks (fixed point ")
}

// appendScaled shows blocks, then mid and the 1/32 units it came from.
func appendScaled(b []byte, blocks float64, mid string) []byte {
	raw, ok := times32(blocks)
	if ok {
		b = appendFixed32(b, raw)
	} else {
		b = strconv.AppendFloat(b, blocks, 'f', -1, 64)
		raw = int64(math.Round(blocks * 32))
	}
	b = append(b, mid...)
	b = dissect.AppendInt(b, raw)
	return append(b, " ÷ 32)"...)
}

// rawAngle recovers the byte an angle in degrees was read from (v*360/256).
func rawAngle(deg float64) int { return int(math.Round(deg * 256 / 360)) }

// angle returns what an angle shows: the raw byte it was read from and
// its degrees in 1/32 (a byte × 360/256 is a byte × 45/32, exact), ok
// when it is such an angle; other values go the general way.
func angle(deg float64) (raw int, d32 int64, ok bool) {
	d32, ok = times32(deg)
	if !ok || d32%45 != 0 {
		return rawAngle(deg), 0, false
	}
	return int(d32 / 45), d32, true
}

func appendYaw(b []byte, n *dissect.Node) []byte {
	deg := n.Value.Float()
	raw, d32, ok := angle(deg)
	if ok {
		b = appendFixed32(b, d32)
	} else {
		b = appendFloat(b, deg)
	}
	b = append(b, "° facing "...)
	b = append(b, compass[((raw+16)/32)%8]...)
	b = append(b, " (raw "...)
	b = dissect.AppendInt(b, int64(raw))
	return append(b, ')')
}

func appendPitch(b []byte, n *dissect.Node) []byte {
	deg := n.Value.Float()
	raw, d32, ok := angle(deg)
	start := len(b)
	if ok {
		b = appendFixed32(b, d32)
	} else {
		b = appendFloat(b, deg)
	}
	end := len(b)
	switch {
	case raw == 0:
		b = append(b, "° level"...)
	case raw <= 64:
		b = append(b, "° looking down "...)
		b = append(b, b[start:end]...)
		b = append(b, "°"...)
	case raw >= 192:
		b = append(b, "° looking up "...)
		if ok {
			b = appendFixed32(b, 360*32-d32)
		} else {
			b = appendFloat(b, 360-deg)
		}
		b = append(b, "°"...)
	default:
		b = append(b, "° beyond straight down/up: head upside down"...)
	}
	b = append(b, " (raw "...)
	b = dissect.AppendInt(b, int64(raw))
	return append(b, ')')
}

// appendDelta shows a relative move in blocks with the signed byte it came
// from: "0.125 blocks (signed delta 4 ÷ 32)".
func appendDelta(b []byte, n *dissect.Node) []byte {
	return appendScaled(b, n.Value.Float(), " blocks (signed delta ")
}
