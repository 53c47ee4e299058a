package reassembly

import "github.com/mcdissect/mcdissect/dissect"

// FrameStatus is the handler's answer to "how long is the PDU at the front
// of these bytes": the one type the protocol framers answer with too.
type FrameStatus = dissect.FrameStatus

const (
	// FrameOK means the first Len bytes form one PDU (0 < Len <= len(buf)).
	FrameOK = dissect.FrameOK
	// FrameNeedMore means the PDU is not complete yet. Len is the total
	// length it needs, counted from the start of buf, if known; else 0.
	FrameNeedMore = dissect.FrameNeedMore
	// FrameSkip means the first Len bytes (Len > 0, may exceed len(buf))
	// are not a PDU: they are reported as KindUndissected and framing
	// resumes after them. Used to resynchronise after a gap.
	FrameSkip = dissect.FrameSkip
	// FrameLost means framing is lost for good: the rest of this direction
	// is reported as KindUndissected.
	FrameLost = dissect.FrameLost
)

// FrameResult is returned by ConnHandler.Frame. Build it with OK, NeedMore,
// Skip or Lost. An answer that does not make sense (FrameOK with a length
// outside the buffer, an unknown status) is treated as FrameLost so a buggy
// framer cannot stall or crash the reassembler.
type FrameResult struct {
	Len    int
	Status FrameStatus
}

// OK answers that the first n bytes are one PDU.
func OK(n int) FrameResult { return FrameResult{Len: n, Status: FrameOK} }

// NeedMore answers that total bytes are needed (0 when unknown).
func NeedMore(total int) FrameResult { return FrameResult{Len: total, Status: FrameNeedMore} }

// Skip answers that the first n bytes are not a PDU and should be skipped.
func Skip(n int) FrameResult { return FrameResult{Len: n, Status: FrameSkip} }

// Lost answers that framing is lost for the rest of the direction.
func Lost() FrameResult { return FrameResult{Status: FrameLost} }

// ConnHandler frames and receives one connection's streams. Both methods are
// called synchronously from Feed, FlushIdle or Close, never concurrently.
type ConnHandler interface {
	// Frame tells how long the PDU at the front of buf is. buf is only
	// valid during the call. afterGap is true at the start of a stream
	// whose beginning was not captured and after a gap, until the handler
	// first answers FrameOK: a handler that cannot find a boundary there
	// should answer Skip or Lost rather than trust a length.
	Frame(dir Dir, buf []byte, afterGap bool) FrameResult
	// Deliver receives units in stream order per direction. See Unit for
	// the lifetime of its fields.
	Deliver(u *Unit)
}

// Factory makes the handler of a connection, when it carries its first
// payload byte (a connection that never does, a SYN flood's, costs the
// table only and gets no handler). It may swap c.Client and
// c.Server when it knows better (for example a well-known server port); the
// Reassembler reads them after Factory returns. A nil handler ignores the
// connection's data (it is still tracked and counted).
type Factory func(c *ConnInfo) ConnHandler

// Closer is an optional ConnHandler method: Closed is called once, after a
// connection's last unit has been delivered (FIN or RST from both sides
// handled, idle or end-of-capture flush), so that the handler can release
// per-connection state such as requests still waiting for a response.
type Closer interface {
	Closed(c *ConnInfo)
}
