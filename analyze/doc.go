// Package analyze is mcdissect's pipeline: capture file or live packets ->
// link, IP and transport decoding -> routing to a protocol by port, "decode
// as" rules or heuristics -> a UDP dissector, or TCP reassembly and framing
// -> records, released in order. The CLI and the golden tests both use it,
// so what the goldens check is what users see.
//
// The flow, one way for every input and output:
//
//	Source.Next ──(regular file: Run's loop; live or pipe: a reader
//	   │           goroutine and a queue, Options.FlushEvery)
//	   ▼
//	front end (one goroutine): Packet -> link/IP -> UDP: udpProtocols routing
//	   │                                       -> TCP: reassembly, tcpProtocols framing
//	   │ jobs, in batches sent when full (Options.Batch, maxBatchBytes)
//	   │ OR when time goes by (Flush: an opFlush job closes the batch)
//	   ▼
//	back end: decode (udpProtocols[i].decode / streamConn.Decode), trackers,
//	   │      hold queue (a request waits for its response: release);
//	   │      for each record released, in order: Sink.Accept (-Y, and
//	   │      what must see records in order), then Sink.Format
//	   │
//	   ├─ Parallel, not Ordered: two shards, each on a goroutine, one
//	   │  decoding Classic's jobs, the other the rest; each formats its
//	   │  records into a chunk per batch ──> merger: records in order ──┐
//	   │                                                                │
//	   └─ Ordered (exports, the page, -t dd, -c with a record -z or      │
//	      -w -Y), or not                                                │
//	      Parallel: one back end, formatting into a buffer written      │
//	      when it passes oneWriteBytes ─────────────────────────────────┤
//	                                                                    ▼
//	Sink.Write -> output, at most Count records shown; at opFlush and at
//	the end everything formatted is written, and Flusher.Flush writes it
//	out: a record never waits for a buffer to fill.
//
// The Sink is the one way records reach the CLI's output. A record is
// decoded, accepted, formatted and reused on one goroutine: handing
// records to formatting goroutines cost -V half again as much CPU time
// (shard.go). New's emit callback, without a Sink, is the same in-order
// hook for library users and tests (the goldens, Options.Keep to collect
// records).
//
// Packet time decides protocol semantics (response windows, idle streams,
// the hold window); on input that is not a regular file, Flush moves packet
// time on by the wall time the input has been idle, so that on a quiet
// interface a request nobody answers is still given up on and printed.
//
// The pipeline has a front end (reading, reassembly, framing, routing) and
// a back end (decoding, conversation trackers, the hold queue); see
// back.go. With Options.Parallel they run on two goroutines, which is how
// the CLI runs on a machine with two cores or more; the goldens run them
// on one, and tests require both to give the same records. With a Sink
// (shard.go) and Parallel the back end is split in two shards, Classic and
// the rest, that accept and format their own records, and a merger writes
// them in order; when the Sink's work is Ordered, one back end does it
// record by record. Options.Lite decodes without trees when only summary
// columns are shown.
//
// Protocol packages stay pure; everything here that touches gopacket, the
// reader or packet time is the edge that feeds them.
package analyze
