// Package analyze is mcdissect's pipeline: capture file or live packets ->
// link, IP and transport decoding -> routing to a protocol by port, "decode
// as" rules or heuristics -> a UDP dissector, or TCP reassembly and framing
// -> records, released in order. The CLI and the golden tests both use it,
// so what the goldens check is what users see.
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
