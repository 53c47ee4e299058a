package slp

import (
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/java"
)

// ProtocolNames names the protocol versions of releases since the Netty
// rewrite (1.7.2), after the wiki.vg "Protocol version numbers" page and the
// Minecraft Wiki's "Protocol version" list. A number may name several
// releases that share a protocol. -1 is the convention of clients that ping
// to learn the server's version. Snapshots set bit 30 (0x40000000) and are
// named by protocolText.
var ProtocolNames = dissect.Names{
	^uint64(0): "any version (-1, ping convention)",
	4:          "1.7.2-1.7.5",
	5:          "1.7.6-1.7.10",
	47:         "1.8-1.8.9",
	107:        "1.9",
	108:        "1.9.1",
	109:        "1.9.2",
	110:        "1.9.3/1.9.4",
	210:        "1.10-1.10.2",
	315:        "1.11",
	316:        "1.11.1/1.11.2",
	335:        "1.12",
	338:        "1.12.1",
	340:        "1.12.2",
	393:        "1.13",
	401:        "1.13.1",
	404:        "1.13.2",
	477:        "1.14",
	480:        "1.14.1",
	485:        "1.14.2",
	490:        "1.14.3",
	498:        "1.14.4",
	573:        "1.15",
	575:        "1.15.1",
	578:        "1.15.2",
	735:        "1.16",
	736:        "1.16.1",
	751:        "1.16.2",
	753:        "1.16.3",
	754:        "1.16.4/1.16.5",
	755:        "1.17",
	756:        "1.17.1",
	757:        "1.18/1.18.1",
	758:        "1.18.2",
	759:        "1.19",
	760:        "1.19.1/1.19.2",
	761:        "1.19.3",
	762:        "1.19.4",
	763:        "1.20/1.20.1",
	764:        "1.20.2",
	765:        "1.20.3/1.20.4",
	766:        "1.20.5/1.20.6",
	767:        "1.21/1.21.1",
	768:        "1.21.2/1.21.3",
	769:        "1.21.4",
	770:        "1.21.5",
	771:        "1.21.6",
	772:        "1.21.7/1.21.8",
	773:        "1.21.9/1.21.10",
	774:        "1.21.11",
	775:        "26.1-26.1.2",
	776:        "26.2",
}

// LegacyProtocolNames names the protocol versions before the Netty rewrite,
// as the 1.6 MC|PingHost and the §1 kick string carry them. They overlap
// the modern numbers (47 is 1.4.2 here, 1.8 there), hence a table apart.
// 127 is what 1.7+ servers put in their reply to a legacy ping.
var LegacyProtocolNames = dissect.Names{
	22:  "1.0",
	23:  "1.1",
	28:  "1.2.1-1.2.3",
	29:  "1.2.4/1.2.5",
	39:  "1.3.1/1.3.2",
	47:  "1.4.2",
	49:  "1.4.4/1.4.5",
	51:  "1.4.6/1.4.7",
	60:  "1.5/1.5.1",
	61:  "1.5.2",
	73:  "1.6.1",
	74:  "1.6.2",
	77:  "1.6.3",
	78:  "1.6.4",
	127: "1.7+ server answering a legacy ping",
}

// snapshotBit marks snapshot protocol numbers since 1.16.4-pre1.
const snapshotBit = 1 << 30

// protocolText is the display of a protocol number that the table cannot
// name (snapshots), or "" when the table's own display will do.
func protocolText(v int64) string {
	if s := snapshotName(v); s != "" {
		return strconv.FormatInt(v, 10) + " (" + s + ")"
	}
	return ""
}

// snapshotName names a snapshot's protocol number ("26.4-snapshot-6,
// snapshot, protocol 0x40000000+344"), or is "" for another number.
func snapshotName(v int64) string {
	if v > snapshotBit && v < snapshotBit<<1 {
		name := java.ProtocolName(int(v)) // "26.4-snapshot-6", from minecraft-data's list
		if name != "" {
			name += ", "
		}
		return name + "snapshot, protocol 0x40000000+" + strconv.FormatInt(v-snapshotBit, 10)
	}
	return ""
}

// releaseOf is pv as a release's number: itself, or for a snapshot's the
// release's before it.
func releaseOf(pv int32) int32 {
	if pv < snapshotBit {
		return pv
	}
	return int32(java.ReleaseProtocol(int(pv)))
}

// VersionName names a modern protocol number: "1.20.5/1.20.6",
// "26.4-snapshot-6, snapshot, protocol 0x40000000+344", "Unknown (N)".
func VersionName(v int64) string {
	if s := snapshotName(v); s != "" {
		return s
	}
	return ProtocolNames.Name(uint64(v))
}

// A 1.7+ server answering a legacy ping puts its modern protocol number in
// the kick (767 for 1.21.1, as minecraft-protocol does in
// samples/slp-legacy.pcap). Legacy numbers end at 127, so every modern
// number above that is named too, and marked as modern.
func init() {
	for v, name := range ProtocolNames {
		if v > 127 {
			LegacyProtocolNames[v] = name + " (a modern protocol number)"
		}
	}
}
