// Package reassembly turns captured TCP segments into an ordered byte stream
// per direction and hands complete PDUs to a protocol's framer, like
// Wireshark's tcp_dissect_pdus. It knows nothing about any protocol: a
// ConnHandler says how long the PDU at the front of the bytes is (Frame) and
// receives the results (Deliver).
//
// # Use
//
//	r := reassembly.New(func(c *reassembly.ConnInfo) reassembly.ConnHandler {
//		return newMyHandler(c)
//	}, reassembly.Limits{})
//	for each TCP packet: r.Feed(frameNumber, ci, ipFlow, tcp)
//	r.Close() // end of capture
//
// Everything is driven by packet time (ci.Timestamp); the wall clock is never
// read, so a capture always gives the same output, in the same order.
//
// # What a handler receives
//
// For each direction, Deliver gets units in stream order whose lengths add up
// exactly to the stream as far as it was seen: KindPDU (one framed PDU),
// KindUndissected (bytes that could not be framed, with a Reason) and KindGap
// (bytes missing from the capture; never parsed across). KindConflict is a
// notice outside that sum: a retransmission carried different bytes than the
// copy already used. The first copy of every byte wins, as in Wireshark.
//
// A unit's Frame is the frame that decides it, as Wireshark shows a
// reassembled PDU at the segment that completes it: the frame being fed
// when the unit became complete, showed a gap, ended the stream or
// acknowledged bytes the capture lost; for units made by a sweep
// (FlushIdle), an eviction or Close, the connection's own last frame.
// Parts lists the frames and byte counts the unit was built from, in
// stream order ("[3 reassembled TCP segments (3120 bytes): #4(1448),
// #6(1448), #7(224)]"). Units are delivered in the order they are decided,
// so a caller that outputs them as they come outputs in an order that is a
// function of the input alone. A handler that learns, while framing one
// direction, how to frame bytes it had kept the other direction waiting
// for calls Reassembler.Reframe, so that they are delivered before the PDU
// it is framing.
// Unit.Data and Unit.Parts are only valid during Deliver: Data points into the
// captured packet whenever the PDU lies within one segment that came in
// order, else into a buffer the Reassembler reuses.
//
// # Directions
//
// The client is the sender of a SYN without ACK (or the receiver of a
// SYN+ACK). Without a SYN, a port below 1024 facing one at or above 1024 is
// the server; otherwise the higher port is the client (ephemeral ports are
// high), and with equal ports the sender of the first segment. The Factory
// may swap ConnInfo.Client and Server when it knows better.
//
// # Streams
//
// Offsets count from ISN+1 when the direction's SYN was seen. A direction
// picked up mid-stream starts at the first payload byte seen; its handler is
// asked to frame with afterGap=true, and may Skip to a boundary (those bytes
// are reported with ReasonMidStream) or answer Lost. Payload seen later that
// lies before that first byte is counted in Stats.Dropped.
//
// After a gap, an incomplete PDU before it is reported as undissected, a
// KindGap unit says how many bytes are missing, and Frame is called with
// afterGap=true until it answers FrameOK. FrameLost, a FrameOK whose length
// makes no sense, or a PDU over the buffer limits (ReasonBufferLimit) end
// framing for that direction: its remaining bytes arrive as KindUndissected.
//
// A direction ends when all bytes before its FIN are delivered; a connection
// ends when both directions did, on RST, after IdleTimeout without segments,
// when a new SYN reuses its 4-tuple, or at Close. Incomplete PDUs are then
// reported with ReasonIncomplete. An ended connection stays known until it
// idles out, so the ACK after a FIN or a late retransmission neither opens a
// new stream number nor leaks memory. Missing bytes that later data waits for
// are given up as a gap after GapTimeout (packet time), when the peer
// acknowledged them, or when the out-of-order store reaches its limits.
// Missing bytes at the end of a direction, revealed by a segment without
// data or a FIN whose sequence number lies past the bytes seen, are given
// up at the FIN once the peer acknowledged them, GapTimeout after they were
// revealed, or at the close.
//
// # Retransmissions
//
// A retransmitted copy of bytes already used is compared with a per-direction
// history of the last Limits.HistoryBytes bytes; a copy of bytes still held
// out of order is kept (within the same budget) and compared when the first
// copy is delivered. Differences produce a KindConflict unit, decided at the
// retransmitting frame or at the frame that delivers the first copy, with
// the retransmitting frame as its Part, covering the first to the last
// differing byte. Bytes that could not be compared are counted in
// Stats.Unverified.
//
// # Out-of-order bytes
//
// The Reassembler keeps its own store of bytes that arrive ahead of the
// stream's position (store.go): per direction, ranges in offset order, each
// with its frame, its time and a copy of its bytes (the caller reuses packet
// buffers) in a buffer of a pool, charged to the limits (Stats.Queued) before
// it is taken. The first copy of a byte stays; a later copy is only compared.
// A segment that starts more than 1 GiB ahead is dropped (Stats.Dropped)
// rather than held, so no allocation is sized by a sequence number.
//
// Bytes at the stream's position go to the framer straight from the packet;
// when they fill a hole, the held ranges that now follow them go in the same
// chunk, up to the next hole, as if they had come in order. A hole given up
// (GapTimeout, the peer's ACK, the limits, the close) becomes a KindGap unit
// and the run of ranges behind it is delivered the same way. Frames are
// attributed from a per-direction list of (offset range, frame) for the
// bytes below the stream's position that a partial PDU still holds: a
// reused slice, so a connection in order allocates nothing per segment.
package reassembly
