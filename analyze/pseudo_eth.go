package analyze

import "github.com/mcdissect/mcdissect/dissect"

// The Ethernet pseudo-fields: a record's Ethernet addresses are those of
// the frame that completed it (Layers), where the capture's link layer is
// Ethernet. eth.addr has two occurrences, source first, as in Wireshark.
var (
	regEth    = dissect.NewRegistry("eth", "Ethernet II")
	PFEthSrc  = regEth.Bytes("eth.src", "Source")
	PFEthDst  = regEth.Bytes("eth.dst", "Destination")
	PFEthAddr = regEth.Bytes("eth.addr", "Source or destination address")
)

var ethExplanations = map[string]string{
	"eth":      "Ethernet II, the link layer of most captures: a frame carries a destination and a source MAC address and the type of what follows (0x0800 IPv4, 0x86dd IPv6). On loopback both addresses are zero.",
	"eth.src":  "The MAC address of the network card that sent the frame, six bytes written as aa:bb:cc:dd:ee:ff. Past a router it is the router's, not the player's.",
	"eth.dst":  "The MAC address the frame was sent to: the next hop's card, or ff:ff:ff:ff:ff:ff for a broadcast.",
	"eth.addr": "Either MAC address of the frame, source or destination, as in Wireshark: eth.addr == 00:11:22:33:44:55 matches a card's traffic both ways.",
}

func init() { regEth.Explain(ethExplanations, nil) }

// eth records the Ethernet addresses of the frame being fed.
func (n *netLayers) eth(frame []byte) {
	n.cur.Has |= HasEth
	copy(n.cur.EthDst[:], frame[0:6])
	copy(n.cur.EthSrc[:], frame[6:12])
}

func isEthPseudo(f *dissect.Field) bool {
	switch f {
	case PFEthSrc, PFEthDst, PFEthAddr, regEth.Root():
		return true
	}
	return false
}

// eachEth emits the values of the fields isEthPseudo knows: nothing when
// the record's frame had no Ethernet header.
func eachEth(r *Record, f *dissect.Field, emit func(dissect.Value)) {
	l := &r.Layers
	if l.Has&HasEth == 0 {
		return
	}
	switch f {
	case regEth.Root():
		emit(dissect.Value{})
	case PFEthSrc:
		emit(dissect.B(l.EthSrc[:]))
	case PFEthDst:
		emit(dissect.B(l.EthDst[:]))
	case PFEthAddr:
		emit(dissect.B(l.EthSrc[:]))
		emit(dissect.B(l.EthDst[:]))
	}
}
