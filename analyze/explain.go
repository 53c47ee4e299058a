package analyze

import (
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
)

// pseudoExplanations: the field reference for what every protocol shares
// (mc) and the pipeline's own TCP and IP notes. Applied at registration
// (dissect.Registry.Explain); a test fails on a field without an entry.
var pseudoExplanations = map[string]string{

	"ip.fragments.incomplete":   "An IPv4 datagram whose fragments never all arrived, reported when they time out (30 s of packet time), when holding them would pass the memory bound (the oldest goes first), when they do not fit together, or at the end. Its bytes cannot be dissected, as a datagram's protocol header is only in its first fragment. Past 1000 such datagrams, one note at the end gives the count of the rest.",
	"ipv6.fragments.incomplete": "An IPv6 datagram whose fragments never all arrived: as ip.fragments.incomplete, for IPv6's fragment header. Query responses over 1280 bytes arrive so on IPv6 networks.",

	"tcp.analysis.retransmission": "This segment carries bytes of the stream that an earlier segment already carried, as Wireshark's tcp.analysis.retransmission means it: the sender thought them lost. mcdissect uses the first copy and says so here, on the retransmission's own frame.",
	"tcp.analysis.lost_segment":   "Bytes of the stream before this point were never captured, as Wireshark's tcp.analysis.lost_segment (\"previous segment(s) not captured\") means it: common at a capture's start and when the kernel drops packets under load. The missing length is in mc.gap.length.",
	"tcp.analysis.out_of_order":   "This segment carries new bytes below the highest sequence number already seen: it arrived after later data and fills a hole, as Wireshark's tcp.analysis.out_of_order means it. Reassembly puts it in its place.",

	"tcp.connection.attempt": "A TCP connection attempt to a Minecraft port that never opened: its SYN was refused by a RST (nothing listens there: the server is down), was never answered within 5 s of its last transmission, or was still waiting when the capture ended. mc.outcome says which; the record is the SYN's, so tcp.flags.syn == 1 finds it. The SYN of a connection that opens is no record of its own: its Minecraft records follow.",
	"tcp.connection.reset":   "A RST on a Minecraft port: it refused a connection attempt (mc.request_in names the SYN) or ended a connection before either side sent a FIN (a ping cut short, a server that aborts). A RST after a FIN is an ordinary way to finish and no record.",
	"mc.conn.untracked":      "Connection attempts mcdissect stopped following before they were decided: when the connection table is full (the memory budget, or 32768 connections), attempts with no payload byte are forgotten first, the least recently seen first. Their outcome is not known.",

	"mc":                          "What every Minecraft protocol shares in mcdissect: each record's protocol, direction and message name, its expert items, TCP reassembly, gaps, and bytes no field explains.",
	"mc.undissected":              "Bytes that no field explains, shown raw so that nothing is hidden: an unknown packet, the encrypted part of a login, or a stream after its framing was lost.",
	"mc.undissected.length":       "How many bytes the undissected range holds, so that filters and statistics can add them up.",
	"mc.conn.evicted":             "A connection mcdissect stopped tracking to bound its memory: when the connection table is full (the memory budget, or 32768 connections) and no mere attempt is left to forget, the longest idle is dropped. Later segments of it start a new stream, read mid-stream.",
	"mc.protocol":                 "The protocol a record was dissected as: query, slp or classic (tcp for a gap), chosen by port, by a -d rule or by recognising the first bytes.",
	"mc.direction":                "Which way the PDU went: c2s from client to server, s2c from server to client. The client is the side that opened the connection or sent the first request.",
	"mc.message":                  "The name of the PDU's message, such as Handshake Request or Status Response, as the summary line shows it. Filter with mc.message == \"Status Response\".",
	"mc.expert":                   "The name of each expert item on the PDU, such as query.token.stale, so that a filter can select PDUs by what the dissector found: mc.expert == \"slp.varint.too_long\".",
	"mc.reassembled.frames":       "The frames whose bytes make up this PDU, in stream order, when TCP reassembly or IP defragmentation joined several.",
	"mc.gap.length":               "How many bytes of the stream the capture is missing at this point. Nothing is parsed across them.",
	"mc.reassembled":              "The TCP segments this PDU was put together from, each with its frame and byte count. A message can span segments, and a segment can hold several messages.",
	"mc.gap":                      "A place where bytes of a TCP stream were never captured. The dissector does not guess across it; each protocol decides whether to find its framing again after it or to give up on the stream.",
	"mc.retransmission.differing": "How many bytes of a retransmitted TCP segment differ from the first copy of the same stream bytes. A normal retransmission repeats them exactly; a difference hints at a broken stack or injected data, and the first copy is the one used.",
}

func init() {
	for _, r := range []*dissect.Registry{netlayers.RegIP, netlayers.RegIPv6, netlayers.RegTCP, dissect.Core} {
		r.Explain(pseudoExplanations, nil)
	}
}
