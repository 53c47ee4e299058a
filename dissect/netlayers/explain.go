package netlayers

// explanations: the field reference of the layers below Minecraft, for
// -G fields, --explain and the page.
var explanations = map[string]string{
	"frame":               "A packet as the capture file holds it, with its number and time. A record of mcdissect is a PDU, so one frame can hold several and one PDU can span several frames; a record shows the frame that decided it.",
	"frame.number":        "The packet's position in the capture file, counting from 1 as Wireshark does. A PDU put together from several TCP segments is shown at the frame that completed it.",
	"frame.time":          "The packet's capture time, an absolute time exact to the nanosecond, written as tshark writes it: month, day, year and time of day, in UTC. Filters compare it as a time: frame.time >= \"2026-11-22 10:19:40\" (local time), \"Nov 22, 2026 10:19:40.5 UTC\" or ISO 8601 \"2026-11-22T10:19:40Z\", with or without fractions and zone.",
	"frame.time_epoch":    "The packet's capture time as seconds since 1970-01-01 00:00 UTC (the Unix epoch), with the fraction the capture recorded.",
	"frame.time_delta":    "Seconds since the previous packet of the capture, whatever it carried: a long pause before a reply shows here.",
	"frame.time_relative": "Seconds since the first packet of the capture, from the capture's own timestamps, never from the clock of the machine reading it.",
	"frame.len":           "The packet's length on the wire, in bytes, link-layer header included, as the capture file records it.",
	"frame.cap_len":       "How many of the packet's bytes the capture kept: less than frame.len when a snap length cut it.",
	"frame.protocols":     "The layers the frame holds, outermost first, separated by colons, as tshark lists them: eth:ethertype:ip:tcp:slp.",

	"eth":      "Ethernet II, the link layer of most captures: a frame carries a destination and a source MAC address and the type of what follows (0x0800 IPv4, 0x86dd IPv6). On loopback both addresses are zero.",
	"eth.dst":  "The MAC address the frame was sent to: the next hop's card, or ff:ff:ff:ff:ff:ff for a broadcast.",
	"eth.src":  "The MAC address of the network card that sent the frame, six bytes written as aa:bb:cc:dd:ee:ff. Past a router it is the router's, not the player's.",
	"eth.type": "What the Ethernet frame carries: 0x0800 IPv4, 0x86dd IPv6, 0x8100 a VLAN tag.",
	"eth.addr": "Either MAC address of the frame, source or destination, as in Wireshark: eth.addr == 00:11:22:33:44:55 matches a card's traffic both ways.",

	"vlan":          "An 802.1Q VLAN tag between the Ethernet header and what it carries: the virtual network the frame belongs to. Several may be stacked (802.1ad, QinQ).",
	"vlan.priority": "The tag's priority, 0 to 7 (the top three bits of its control field).",
	"vlan.id":       "The VLAN's number, 0 to 4095.",
	"vlan.etype":    "What follows the tag: 0x0800 IPv4, 0x86dd IPv6, or another tag.",
	"vlan.tpid":     "The tag's protocol identifier: 0x8100, 0x88a8 or 0x9100.",

	"sll":         "Linux's cooked capture header, written instead of a link-layer header when tcpdump captures on every interface at once (-i any).",
	"sll.pkttype": "Whether the packet was to this host, a broadcast, a multicast, to another host, or sent by this host.",
	"sll.etype":   "What the packet carries: 0x0800 IPv4, 0x86dd IPv6.",
	"sll.ifindex": "The number of the interface the packet was captured on.",
	"sll.other":   "The header's other fields (the link-layer address type and length, the address), kept as bytes.",

	"null":        "The BSD loopback header: four bytes giving the address family of the packet that follows.",
	"null.family": "The address family: 2 for IPv4, 10, 24, 28 or 30 for IPv6 depending on the system.",

	"ip":             "IPv4, the network layer that carries each packet from one address to another. mcdissect reads its addresses and puts fragmented datagrams back together.",
	"ip.version":     "The IP version, 4 for IPv4 (the top four bits of the first byte).",
	"ip.hdr_len":     "The IPv4 header's length in bytes: 20 without options.",
	"ip.dsfield":     "Differentiated services and congestion notification bits: how routers should queue the packet.",
	"ip.len":         "The IPv4 packet's length in bytes, header included.",
	"ip.id":          "The IPv4 identification, the number the fragments of one datagram share.",
	"ip.flags":       "The IPv4 flags: don't fragment, more fragments.",
	"ip.flags.df":    "Don't fragment: a router must drop the packet rather than split it.",
	"ip.flags.mf":    "More fragments: this is not the datagram's last fragment.",
	"ip.frag_offset": "Where this fragment's bytes sit in the datagram, in bytes.",
	"ip.ttl":         "The IPv4 time to live: each router on the way takes one off, so a value below the sender's start (64, 128 or 255) tells how many hops away it is.",
	"ip.proto":       "The protocol the IPv4 packet carries: 6 for TCP, 17 for UDP.",
	"ip.checksum":    "The IPv4 header's checksum, as sent (not checked: capture offloading often leaves it unset).",
	"ip.options":     "IPv4 options past the 20-byte header, rare today.",
	"ip.src":         "The IPv4 address the packet came from, in dotted decimal. Behind a proxy or NAT it is the last hop's address, not the player's.",
	"ip.dst":         "The IPv4 address the packet was sent to, in dotted decimal.",
	"ip.addr":        "Either IPv4 address of the packet, source or destination, as in Wireshark: ip.addr == 10.0.0.1 matches traffic both ways, and a CIDR block such as 10.0.0.0/8 matches a whole network.",

	"ipv6":         "IPv6, the newer network layer with 128-bit addresses. Minecraft runs over it the same way as over IPv4.",
	"ipv6.version": "The IP version, 6 for IPv6.",
	"ipv6.tclass":  "The traffic class: how routers should queue the packet.",
	"ipv6.flow":    "The flow label, which lets routers keep a flow's packets on one path.",
	"ipv6.plen":    "The payload's length in bytes, extension headers included, the fixed 40-byte header not.",
	"ipv6.nxt":     "The header that follows the IPv6 header: 6 for TCP, 17 for UDP, or an extension header.",
	"ipv6.hlim":    "The IPv6 hop limit, IPv6's time to live: each router on the way takes one off.",
	"ipv6.src":     "The IPv6 address the packet came from, in its shortened text form.",
	"ipv6.dst":     "The IPv6 address the packet was sent to, in its shortened text form.",
	"ipv6.addr":    "Either IPv6 address of the packet, source or destination: ipv6.addr == ::1 matches loopback traffic both ways, and a prefix such as 2001:db8::/32 matches a whole network.",
	"ipv6.ext":     "An IPv6 extension header between the fixed header and the transport (hop-by-hop or destination options, routing, a fragment header), named by its type.",

	"tcp":                         "TCP, the reliable byte stream that Server List Ping and Classic use. The stream has no message boundaries, so mcdissect reassembles it and cuts it into PDUs by each protocol's framing.",
	"tcp.srcport":                 "The TCP port the segment came from; a client's port is usually a random high number chosen by its system.",
	"tcp.dstport":                 "The TCP port the segment was sent to: for a client's packets the server's port, 25565 by default.",
	"tcp.port":                    "Either TCP port of the segment, source or destination, as in Wireshark: tcp.port == 25565 selects a server's traffic whichever way it flows.",
	"tcp.stream":                  "The number of the TCP connection in the capture, from 0 in order of appearance, as Wireshark numbers streams. Filter with tcp.stream == N to follow one conversation.",
	"tcp.len":                     "How many bytes of data the segment carries, from the IP header's length, whether or not the capture kept them all.",
	"tcp.seq":                     "The segment's sequence number relative to the direction's first, as tshark shows it by default: 0 for the SYN, 1 for the first data byte. Without the SYN, the first segment seen counts as 1.",
	"tcp.seq_raw":                 "The segment's sequence number as sent, before it is made relative.",
	"tcp.ack":                     "The next byte the sender expects from the other side, relative to that side's first sequence number, as tshark shows it; 0 when the ACK flag is not set.",
	"tcp.ack_raw":                 "The acknowledgement number as sent, before it is made relative.",
	"tcp.hdr_len":                 "The TCP header's length in bytes: 20 without options, often 32 or 40 with them.",
	"tcp.flags":                   "The TCP flag bits as one number: 0x002 SYN, 0x010 ACK, 0x018 PSH and ACK, 0x011 FIN and ACK, 0x004 RST.",
	"tcp.flags.cwr":               "CWR: the sender reduced its congestion window after an ECN echo.",
	"tcp.flags.ece":               "ECE: an ECN echo, a router on the way marked congestion.",
	"tcp.flags.urg":               "URG: the urgent pointer is valid; almost never used.",
	"tcp.flags.ack":               "ACK: the acknowledgment number is valid. Every segment after the first SYN has it.",
	"tcp.flags.push":              "PSH: the sender asks for the data to be handed to the application now; usually set on the last segment of a write.",
	"tcp.flags.reset":             "RST: the connection is aborted, for example by a server refusing a port or a client giving up.",
	"tcp.flags.syn":               "SYN: the segment opens a connection (a SYN alone from the client, SYN and ACK from the server).",
	"tcp.flags.fin":               "FIN: the sender has no more data; the connection closes in that direction.",
	"tcp.window_size_value":       "The raw 16-bit window field, before any window scaling.",
	"tcp.window_size":             "The receive window the sender advertises, in bytes, scaled by the window scale both ends announced in their SYNs; when the SYNs were not captured the scale is unknown and the raw window is shown, as tshark does.",
	"tcp.window_size_scalefactor": "What the raw window is multiplied by: 2 to the shift both ends announced; -1 when the SYNs were not captured, -2 when the ends use no scaling.",
	"tcp.checksum":                "The segment's checksum, as sent (not checked: capture offloading often leaves it unset).",
	"tcp.urgent_pointer":          "Where urgent data ends, when the URG flag is set.",
	"tcp.options":                 "The TCP options past the 20-byte header: maximum segment size, window scale, timestamps, selective acknowledgements.",

	"udp":          "UDP, the connectionless transport Query uses: each request and each response is one datagram, with no delivery guarantee, which is why Query clients time out and retry.",
	"udp.srcport":  "The UDP port the datagram came from. A Query client's port is part of what its challenge token is bound to.",
	"udp.dstport":  "The UDP port the datagram was sent to: for requests the server's query port (query.port, 25565 by default).",
	"udp.port":     "Either UDP port of the datagram, source or destination: udp.port == 25565 selects Query requests and their responses together.",
	"udp.length":   "The UDP header's length field: the 8-byte header plus the payload.",
	"udp.checksum": "The datagram's checksum, as sent (0 when the sender computed none).",

	"icmp":            "ICMP, the messages IP hosts and routers send about IP itself. A port unreachable is the answer of a host where nothing listens on the UDP port a datagram was sent to: a Query sent to a server that is down gets one, which the request it answers then says (mc.outcome refused).",
	"icmp.type":       "What the ICMP message is: 3 destination unreachable, 11 time to live exceeded, 8 and 0 an echo (ping) request and reply.",
	"icmp.code":       "What went wrong, for a destination unreachable: 3 port unreachable (nothing listens there), 1 host unreachable, 0 network unreachable, 13 administratively filtered (a firewall).",
	"icmp.checksum":   "The ICMP message's checksum, as sent (mcdissect does not check it).",
	"icmp.unused":     "Four bytes an ICMP error leaves unused (zero), before the datagram it quotes: that datagram's IP header and at least the first 8 bytes after it, which hold its ports.",
	"icmp.data":       "The rest of an ICMP message that is not an error: an echo's identifier, sequence number and data.",
	"icmpv6":          "ICMPv6, IPv6's own control messages. A destination unreachable with code 4 is IPv6's port unreachable: nothing listens on the port a datagram was sent to.",
	"icmpv6.type":     "What the ICMPv6 message is: 1 destination unreachable, 2 packet too big, 3 time exceeded, 128 and 129 an echo request and reply.",
	"icmpv6.code":     "What went wrong, for a destination unreachable: 4 port unreachable, 3 address unreachable, 1 administratively prohibited, 0 no route.",
	"icmpv6.checksum": "The ICMPv6 message's checksum, as sent (mcdissect does not check it).",
	"icmpv6.reserved": "Four bytes an ICMPv6 error leaves zero, before the packet it quotes (as much of it as fits in 1280 bytes).",
	"icmpv6.data":     "The rest of an ICMPv6 message that is not an error.",
}

func init() {
	RegFrame.Explain(explanations, nil)
	RegEth.Explain(explanations, nil)
	RegVLAN.Explain(explanations, nil)
	RegSLL.Explain(explanations, nil)
	RegNull.Explain(explanations, nil)
	RegIP.Explain(explanations, nil)
	RegIPv6.Explain(explanations, nil)
	RegTCP.Explain(explanations, nil)
	RegUDP.Explain(explanations, nil)
	RegICMP.Explain(explanations, nil)
	RegICMP6.Explain(explanations, nil)
}
