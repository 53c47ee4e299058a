// Package analyze is mcdissect's pipeline: capture file or live packets ->
// link, IP and transport decoding -> routing to a protocol by port, "decode
// as" rules or heuristics -> a UDP dissector, or TCP reassembly and framing
// -> records, given in order to one Sink. The CLI and the golden tests
// both use it, so what the goldens check is what users see. The protocols
// are those registered (package protocols): nothing here names one.
//
// One execution model, for every input and output:
//
//	Source.Next ──(a regular file: Run's loop; live or a pipe: a reader
//	   │           goroutine and a queue, flushed every Options.FlushEvery)
//	   ▼
//	front end (the caller's goroutine): Packet -> link, VLAN, IPv4/IPv6 and
//	   │   its extension headers (fragments: ipfrag) -> UDP: routing
//	   │                                            -> TCP: reassembly (one
//	   │   connection table: the reassembler's; each entry carries the
//	   │   layers' last head and the watch's SYN/FIN/RST state), framing
//	   │ jobs, in batches, in the order they are made, with the header bytes
//	   │ of the frames that decide them (dissect/netlayers makes their tree)
//	   ▼
//	back end (a goroutine of its own): decode (Protocol.Decode,
//	   │ Conn.Decode), trackers, the hold queue (a request waits for its
//	   │ response, bounded: release), --redact's masking
//	   │ records, in batches, in order (at the end of each batch of jobs,
//	   │ or past a megabyte), and back to the pool: a fixed number of
//	   │ batches in flight (out.go)
//	   ▼
//	output stage (a goroutine of its own for records with trees; on the
//	back end's for Lite ones, whose hand-over costs more than their
//	formatting): Sink.Record, each record in order (filtering,
//	statistics, exports, formatting, writing); Sink.Flush when time went
//	by (Analyzer.Flush) and at the end
//
// Where a record appears is Wireshark's rule: at the frame whose arrival
// decides it (the segment that completes a PDU, the one that shows a gap
// or acknowledges bytes the capture lost, the FIN that ends a stream; for
// what a sweep, an eviction or the end of the input decides, the
// connection's own last frame), listing the frames its bytes came from
// (Record.Parts). Records leave in the order they are decided, but for a
// request held for its response and those behind it, which keep their
// place: the output is a function of the input alone, the same on one core
// and two, from a file and live.
//
// The stages are the one place of parallelism: reading, reassembly and
// framing run beside decoding and tracking, which run beside the Sink's
// work (filtering, statistics, formatting). The stages share no mutable
// state: a TCP connection has two instances of its protocol's state, the
// front frames with one, the back decodes with the other, and what framing
// learns that decoding needs (a gap) is passed on as a job; a record
// handed to the output stage owns what it views, or views what stays
// unchanged until it is back (out.go says which).
//
// What is held across packets (connections, bytes waiting for
// reassembly, IP fragments, levels, records held for a response) is
// charged to one memory budget (Options.Budget): past it, the holder that
// asks gives up its own oldest holdings, and says so. Each end charges a
// stage of the budget of its own, within a part of the limit that the
// front end sets at each batch from what the back end held six batches
// back (pipe.divide; the back end takes its part when it starts the
// batch), never from how far the other goroutine has got: what a full
// budget makes them give up is the same on every run, and the two parts
// never add up past the limit. A TCP connection is
// charged from its first segment, what its entry really takes, so a SYN
// flood is bounded by the budget like the rest; the reassembler evicts
// the least recently seen connections when a charge is refused, and the
// watch counts the attempts evicted while they waited (one note at the
// end).
//
// Packet time decides protocol semantics (response windows, idle streams,
// the hold window); on input that is not a regular file, Flush moves packet
// time on by the wall time the input has been idle, so that on a quiet
// interface a request nobody answers is still given up on and printed.
//
// Protocol packages stay pure; everything here that touches gopacket, the
// reader or packet time is the edge that feeds them.
package analyze
