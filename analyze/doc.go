// Package analyze is mcdissect's pipeline: capture file or live packets ->
// link, IP and transport decoding -> routing to a protocol by port, "decode
// as" rules or heuristics -> a UDP dissector, or TCP reassembly and framing
// -> records, released in order. The CLI and the golden tests both use it,
// so what the goldens check is what users see.
//
// Protocol packages stay pure; everything here that touches gopacket, the
// reader or packet time is the edge that feeds them.
package analyze
