package analyze

import "github.com/mcdissect/mcdissect/record"

// eth records the Ethernet addresses of the frame being fed.
func (n *netLayers) eth(frame []byte) {
	n.cur.Has |= record.HasEth
	copy(n.cur.EthDst[:], frame[0:6])
	copy(n.cur.EthSrc[:], frame[6:12])
}
