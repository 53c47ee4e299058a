//go:build linux && pcap

package capture

import "github.com/gopacket/gopacket/layers"

// anyLinkType is the link type libpcap gives -i any by default (SLL; it
// gives SLL2 only when asked with pcap_set_datalink).
const anyLinkType = layers.LinkTypeLinuxSLL
