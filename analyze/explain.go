package analyze

import (
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// pseudoExplanations: the field reference for the record-level fields
// (frame, ip, ipv6, udp, tcp) and what every protocol shares (mc). Applied
// at registration (dissect.Registry.Explain); a test fails on a field
// without an entry.
var pseudoExplanations = map[string]string{
	"frame":               "A packet as the capture file holds it, with its number and time. A record of mcdissect is a PDU, so one frame can hold several and one PDU can span several frames.",
	"frame.number":        "The packet's position in the capture file, counting from 1 as Wireshark does. A PDU put together from several TCP segments is shown at the frame that completed it.",
	"frame.time_relative": "Seconds since the first packet of the capture, from the capture's own timestamps, never from the clock of the machine reading it.",
	"frame.time_epoch":    "The packet's capture time as seconds since 1970-01-01 00:00 UTC (the Unix epoch), with the fraction the capture recorded.",

	"ip":                      "IPv4, the network layer that carries each packet from one address to another. mcdissect reads its addresses and puts fragmented datagrams back together.",
	"ip.src":                  "The IPv4 address the packet came from, in dotted decimal. Behind a proxy or NAT it is the last hop's address, not the player's.",
	"ip.dst":                  "The IPv4 address the packet was sent to, in dotted decimal.",
	"ipv6":                    "IPv6, the newer network layer with 128-bit addresses. Minecraft runs over it the same way as over IPv4.",
	"ipv6.src":                "The IPv6 address the packet came from, in its shortened text form.",
	"ipv6.dst":                "The IPv6 address the packet was sent to, in its shortened text form.",
	"ip.fragments.incomplete": "An IPv4 datagram whose fragments never all arrived, reported at the end or when they time out. Its bytes cannot be dissected, as a datagram's protocol header is only in its first fragment.",
	"ip.addr":                 "Either IPv4 address of the packet, source or destination, as in Wireshark: ip.addr == 10.0.0.1 matches traffic both ways, and a CIDR block such as 10.0.0.0/8 matches a whole network.",
	"ipv6.addr":               "Either IPv6 address of the packet, source or destination: ipv6.addr == ::1 matches loopback traffic both ways, and a prefix such as 2001:db8::/32 matches a whole network.",

	"udp":                         "UDP, the connectionless transport Query uses: each request and each response is one datagram, with no delivery guarantee, which is why Query clients time out and retry.",
	"udp.srcport":                 "The UDP port the datagram came from. A Query client's port is part of what its challenge token is bound to.",
	"udp.dstport":                 "The UDP port the datagram was sent to: for requests the server's query port (query.port, 25565 by default).",
	"tcp":                         "TCP, the reliable byte stream that Server List Ping and Classic use. The stream has no message boundaries, so mcdissect reassembles it and cuts it into PDUs by each protocol's framing.",
	"tcp.srcport":                 "The TCP port the segment came from; a client's port is usually a random high number chosen by its system.",
	"tcp.dstport":                 "The TCP port the segment was sent to: for a client's packets the server's port, 25565 by default.",
	"tcp.port":                    "Either TCP port of the segment, source or destination, as in Wireshark: tcp.port == 25565 selects a server's traffic whichever way it flows.",
	"udp.port":                    "Either UDP port of the datagram, source or destination: udp.port == 25565 selects Query requests and their responses together.",
	"tcp.analysis.retransmission": "This segment carries bytes of the stream that an earlier segment already carried, as Wireshark's tcp.analysis.retransmission means it: the sender thought them lost. mcdissect uses the first copy and says so here, on the retransmission's own frame.",
	"tcp.analysis.lost_segment":   "Bytes of the stream before this point were never captured, as Wireshark's tcp.analysis.lost_segment (\"previous segment(s) not captured\") means it: common at a capture's start and when the kernel drops packets under load. The missing length is in mc.gap.length.",
	"tcp.analysis.out_of_order":   "This segment carries new bytes below the highest sequence number already seen: it arrived after later data and fills a hole, as Wireshark's tcp.analysis.out_of_order means it. Reassembly puts it in its place.",
	"tcp.stream":                  "The number of the TCP connection in the capture, from 0 in order of appearance, as Wireshark numbers streams. Filter with tcp.stream == N to follow one conversation.",

	"mc":                          "What every Minecraft protocol shares in mcdissect: each record's protocol, direction and message name, its expert items, TCP reassembly, gaps, and bytes no field explains.",
	"mc.undissected":              "Bytes that no field explains, shown raw so that nothing is hidden: an unknown packet, the encrypted part of a login, or a stream after its framing was lost.",
	"mc.undissected.length":       "How many bytes the undissected range holds, so that filters and statistics can add them up.",
	"mc.conn.evicted":             "A connection mcdissect stopped tracking to bound its memory: past 32768 connections the longest idle is dropped. Later segments of it start a new stream, read mid-stream.",
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
	for _, r := range []*dissect.Registry{record.RegFrame, record.RegIP, record.RegIPv6, record.RegUDP, record.RegTCP, dissect.Core} {
		r.Explain(pseudoExplanations, nil)
	}
}
