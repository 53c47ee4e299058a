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
//	   │      hold queue (a request waits for its response: release)
//	   │      with a Sink and Parallel: two shards, Classic and the rest,
//	   │      each formatting its records; a merger writes them in order
//	   ▼
//	emit / Sink.Write -> output; at opFlush the output is written out
//	(Options.Flush, Flusher), so a record never waits for a buffer to fill.
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
// (shard.go) the back end is split in two shards, Classic and the rest,
// that format their own records, and a merger writes them in order: the
// CLI's path when nothing but -c stands between dissecting and output.
// Options.Lite decodes without trees when only summary columns are shown.
//
// Protocol packages stay pure; everything here that touches gopacket, the
// reader or packet time is the edge that feeds them.
package analyze
