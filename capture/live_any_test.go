//go:build linux && !pcap

package capture

// anyLinkType is the link type of -i any: the default build writes Linux
// cooked v2 headers, as tcpdump does since libpcap 1.10.
const anyLinkType = LinkTypeLinuxSLL2
