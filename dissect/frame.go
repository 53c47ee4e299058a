package dissect

// FrameStatus is a framer's answer about the bytes at the front of a stream.
type FrameStatus uint8

const (
	// FrameOK: a PDU of Len bytes starts at the front.
	FrameOK FrameStatus = iota
	// FrameNeedMore: not enough bytes to tell, or the PDU is not complete
	// yet. Len is the total needed when known, else 0. This is framing's
	// normal state between segments, not an error.
	FrameNeedMore
	// FrameSkip: Len bytes at the front belong to no PDU (a resync after a
	// gap or a mid-stream start); report them undissected and try again.
	FrameSkip
	// FrameLost: the framing cannot be recovered; the rest of this direction
	// is reported as undissected bytes. Reason says why.
	FrameLost
)

// Frame is a framer's answer: what the reassembler should do next.
type Frame struct {
	Len    int
	Status FrameStatus
	Reason string // for FrameSkip and FrameLost: why, for the undissected item
}

// Object is a file a PDU carries, for --export-objects (a Classic level's
// blocks, an SLP favicon). The data belongs to the PDU.
type Object struct {
	Kind string // "level", "favicon"
	Name string // a file name the exporter may use, without directories
	Data []byte
	Dims [3]int // a level's X, Y, Z sizes (its blocks are ordered (y*Z + z)*X + x)
}
