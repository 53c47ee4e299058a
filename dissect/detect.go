package dissect

import "strconv"

// Detection is a protocol detector's answer about the first bytes a client
// sent on a connection: every TCP protocol's Detect returns one, and the
// pipeline's routing table asks them in turn.
type Detection uint8

const (
	DetectNo       Detection = iota // not this protocol
	DetectYes                       // this protocol
	DetectNeedMore                  // too few bytes to tell
)

func (d Detection) String() string {
	switch d {
	case DetectNo:
		return "no"
	case DetectYes:
		return "yes"
	case DetectNeedMore:
		return "need more"
	}
	return "Unknown (" + strconv.Itoa(int(d)) + ")"
}
