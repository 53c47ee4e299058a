package reassembly

import "time"

// Defaults used for zero or negative fields of Limits.
const (
	// DefaultMaxBufferedPerConn lets the largest Minecraft packet (2 MiB,
	// a 3-byte VarInt length) be reassembled with room to spare.
	DefaultMaxBufferedPerConn = 4 << 20
	DefaultMaxBufferedTotal   = 32 << 20
	DefaultIdleTimeout        = 5 * time.Minute
	// DefaultGapTimeout is long against TCP retransmission timers (a
	// retransmission that fills a hole normally arrives within seconds) and
	// short enough that data behind a never-captured segment is not held
	// for the whole connection.
	DefaultGapTimeout   = 30 * time.Second
	DefaultHistoryBytes = 16 << 10
)

// Limits bound memory and waiting. Zero fields take the defaults above;
// every limit is applied before memory is taken.
type Limits struct {
	// MaxBufferedPerConn bounds, for one connection, both the partial-PDU
	// buffers of its two directions together and the out-of-order bytes
	// held for each direction (each range costs its buffer, a power of two
	// of at least 64 bytes, and its 64-byte record). A PDU that would
	// need more is reported as KindUndissected with ReasonBufferLimit and
	// framing of that direction is lost; out-of-order bytes that would
	// need more make the direction's oldest holes be given up as gaps.
	MaxBufferedPerConn int
	// Account is charged the same two kinds of memory over all
	// connections (Stats.Buffered, which includes the retransmission
	// histories, and Stats.Queued): the process's memory budget
	// (budget.Account). A refused charge is met as a limit is: the
	// direction's oldest holes are given up, or its PDU is reported
	// undissected (ReasonBufferLimit). Nil: MaxBufferedTotal bounds each
	// kind.
	Account Charger
	// MaxBufferedTotal bounds each kind over all connections when there
	// is no Account.
	MaxBufferedTotal int
	// IdleTimeout closes a connection with no segment for that long, in
	// packet time; its incomplete PDUs are reported.
	IdleTimeout time.Duration
	// GapTimeout gives up waiting for missing bytes once the data queued
	// behind them is that old, in packet time; the hole becomes KindGap.
	GapTimeout time.Duration
	// HistoryBytes is how many already-used bytes each direction keeps to
	// compare retransmissions against (KindConflict). Negative disables the
	// comparison; retransmitted bytes older than the history are counted in
	// Stats.Unverified.
	HistoryBytes int
	// MaxConns bounds the connections tracked at once: when a new one
	// would pass it, the longest idle are evicted (closed connections
	// first), their incomplete PDUs reported and their handlers told
	// (Evicter). Zero takes DefaultMaxConns.
	MaxConns int
	// ConnCost is what a connection with a handler costs Account in all,
	// its entry included (its state above the reassembler's, the
	// protocols' included, is the caller's to estimate): the part above
	// the entry's charge is charged from its first payload byte.
	ConnCost int
	// EntryCost is what the caller keeps for every connection's entry
	// (ConnInfo.User). With an Account, every entry is charged its real
	// size, the reassembler's own and EntryCost, from its first segment
	// (and what Reassembler.ChargeEntry adds for it): a connection seen
	// only by its SYN, SYN-ACK or RST costs that, not ConnCost. When a
	// charge (an entry's, ConnCost) is refused, the longest idle
	// connections are evicted, as for MaxConns, until it fits; with
	// nothing left to evict, the connection goes on uncharged. When a
	// buffer's charge is refused, entries without a payload byte yet are
	// evicted the same way, before any bytes are given up.
	EntryCost int
}

// Charger is an account of the memory budget.
type Charger interface {
	Charge(n int64) bool
	Credit(n int64)
}

// ownTotal is the account of a Reassembler without one: each kind of
// memory against MaxBufferedTotal.
type ownTotal struct {
	limit int64
	used  int64
}

func (o *ownTotal) Charge(n int64) bool {
	if o.used+n > o.limit {
		return false
	}
	o.used += n
	return true
}

func (o *ownTotal) Credit(n int64) { o.used -= n }

// withDefaults fills zero or negative fields.
func (l Limits) withDefaults() Limits {
	if l.MaxBufferedPerConn <= 0 {
		l.MaxBufferedPerConn = DefaultMaxBufferedPerConn
	}
	if l.MaxBufferedTotal <= 0 {
		l.MaxBufferedTotal = DefaultMaxBufferedTotal
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = DefaultIdleTimeout
	}
	if l.GapTimeout <= 0 {
		l.GapTimeout = DefaultGapTimeout
	}
	if l.HistoryBytes == 0 {
		l.HistoryBytes = DefaultHistoryBytes
	}
	if l.MaxConns <= 0 {
		l.MaxConns = DefaultMaxConns
	}
	if l.HistoryBytes < 0 {
		l.HistoryBytes = 0
	}
	return l
}

// Stats are running totals since New.
type Stats struct {
	Conns        int    // connections seen (the next Stream number)
	Open         int    // connections currently tracked
	Segments     uint64 // TCP segments fed
	PayloadBytes uint64 // payload bytes fed, duplicates included
	PDUs         uint64 // KindPDU units delivered
	PDUBytes     uint64
	Undissected  uint64 // bytes delivered as KindUndissected
	GapBytes     uint64 // bytes reported missing
	// Retransmitted counts payload bytes seen again (already used or
	// already queued); the first copy was kept.
	Retransmitted uint64
	Conflicts     uint64 // KindConflict notices delivered
	Unverified    uint64 // retransmitted bytes that could not be compared
	// Dropped counts payload bytes ignored: before the first byte of a
	// stream picked up mid-stream, after a connection closed, or absurdly
	// far from the expected sequence number.
	Dropped         uint64
	BufferLimitHits uint64 // directions whose framing was lost to a limit
	Evicted         uint64 // open connections dropped to stay under MaxConns
	// RetransSegments and OutOfOrderSegments count the segments noted
	// (Noter): carrying bytes already seen, or filling a hole.
	RetransSegments    uint64
	OutOfOrderSegments uint64
	Handlers           uint64 // handlers made (connections that carried a payload byte)
	Buffered           int    // bytes now held in PDU buffers and histories
	PeakBuffered       int
	Queued             int // bytes now held out of order, with their records
	PeakQueued         int
}

// ClosedLinger is how long, in packet time, a connection closed by FIN or
// RST stays known after its last segment, so that late retransmissions and
// the last ACK are counted against it rather than opening a new one. It is
// shorter than IdleTimeout because a capture of a busy server closes
// thousands of connections a minute.
const ClosedLinger = 30 * time.Second
