package netlayers

import (
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
)

// Want is a set of the layers' fields: the nodes a walk (Make) is asked
// for. As Wireshark makes only the items a filter, a column or a shown
// tree reads ("interesting fields"), a reader of two fields pays for two
// nodes, not fifty. A layer's node is made when the set asks for it (a
// filter testing "tcp"), for its line (the text -V shows), or for a field
// of it; the frame's node, the expert items and the bytes no field
// explains are made whatever the set. A tree made for a set is the whole
// tree (All) less the nodes the set does not ask for.
type Want struct{ bits [2]uint64 }

// All asks for the whole tree (-T json, the page); Lines for the layers'
// nodes and lines only, the outline -V shows.
var All, Lines Want

func init() {
	for b := range bit(nBits) {
		All.add(b)
	}
	for b, f := range fieldOf {
		bitOf[f] = bit(b)
	}
	for _, r := range roots {
		Lines.add(r)
		Lines.add(nodeOf(r))
		for b, f := range fieldOf {
			if strings.HasPrefix(f.Name, fieldOf[r].Name+".") {
				fieldsOf[r].add(bit(b))
				rootOf[b] = r
			}
		}
		layerOf[r] = fieldsOf[r]
		layerOf[r].add(r)
		layerOf[r].add(nodeOf(r))
	}
	// An ICMP error's node holds the datagram it quotes.
	for _, r := range [...]bit{bICMP, bICMP6} {
		for _, q := range [...]bit{bIP, bIPv6, bTCP, bUDP} {
			layerOf[r] = layerOf[r].Or(layerOf[q])
		}
	}
}

// fieldsOf is, for a layer's own field, the set of its fields: a walk
// that is asked for none of them reads past the layer's header at once.
// layerOf is what makes the layer's node: its fields, its line, the node
// itself, and for ICMP what the quoted datagram holds. rootOf is the
// layer of each field.
var (
	fieldsOf, layerOf [nFields]Want
	rootOf            [nFields]bit
)

// anyIn reports whether w asks for anything of m.
func (w *Want) anyIn(m *Want) bool {
	return w.bits[0]&m.bits[0] != 0 || w.bits[1]&m.bits[1] != 0
}

// anyOf reports whether w asks for a field of the layer whose own field is
// root.
func (w *Want) anyOf(root bit) bool { return w.anyIn(&fieldsOf[root]) }

// nodeOf is the bit that asks for the node of the layer whose own field is
// root, without its line: the node bits follow the fields'.
func nodeOf(root bit) bit { return nFields + root }

// WantField is the set that asks for f: empty for a field that is not the
// layers'. A layer's own field asks for its node (a filter testing "ip");
// a field of a layer, for the layer's node too, and a flag for its flags
// field (tcp.flags.syn for tcp.flags), under which the tree shows them.
func WantField(f *dissect.Field) Want {
	var w Want
	b, ok := bitOf[f]
	if !ok {
		return w
	}
	if b < nRoots {
		w.add(nodeOf(b))
		return w
	}
	w.add(b)
	w.add(nodeOf(rootOf[b]))
	switch b {
	case bIPFlagDF, bIPFlagMF:
		w.add(bIPFlags)
	case bTCPFlagCWR, bTCPFlagECE, bTCPFlagURG, bTCPFlagACK, bTCPFlagPSH, bTCPFlagRST, bTCPFlagSYN, bTCPFlagFIN:
		w.add(bTCPFlags)
	}
	return w
}

// Or is what w and o ask for together.
func (w Want) Or(o Want) Want {
	return Want{[2]uint64{w.bits[0] | o.bits[0], w.bits[1] | o.bits[1]}}
}

// Covers reports whether w asks for everything o asks for.
func (w Want) Covers(o Want) bool {
	return o.bits[0]&^w.bits[0] == 0 && o.bits[1]&^w.bits[1] == 0
}

// IsZero reports whether w asks for nothing.
func (w Want) IsZero() bool { return w.bits == [2]uint64{} }

func (w *Want) add(b bit)      { w.bits[b>>6] |= 1 << (b & 63) }
func (w *Want) has(b bit) bool { return w.bits[b>>6&1]>>(b&63)&1 != 0 }

// bit is a field's place in a Want: the walk names fields by it, and
// fieldOf gives the field.
type bit uint8

const (
	bFrame bit = iota
	bEth
	bVLAN
	bSLL
	bNull
	bIP
	bIPv6
	bTCP
	bUDP
	bICMP
	bICMP6
	bFrameNumber
	bFrameTime
	bFrameEpoch
	bFrameDelta
	bFrameRelative
	bFrameLen
	bFrameCapLen
	bFrameProtocols
	bEthDst
	bEthSrc
	bEthType
	bEthAddr
	bVLANPriority
	bVLANID
	bVLANType
	bVLANTPID
	bSLLPktType
	bSLLType
	bSLLIfIndex
	bSLLOther
	bNullFamily
	bIPVersion
	bIPHdrLen
	bIPDSField
	bIPLen
	bIPID
	bIPFlags
	bIPFlagDF
	bIPFlagMF
	bIPFragOff
	bIPTTL
	bIPProto
	bIPChecksum
	bIPOptions
	bIPSrc
	bIPDst
	bIPAddr
	bIPv6Version
	bIPv6TClass
	bIPv6Flow
	bIPv6PLen
	bIPv6Nxt
	bIPv6HLim
	bIPv6Src
	bIPv6Dst
	bIPv6Addr
	bIPv6Ext
	bTCPSrcPort
	bTCPDstPort
	bTCPPort
	bTCPStream
	bTCPLen
	bTCPSeq
	bTCPSeqRaw
	bTCPAck
	bTCPAckRaw
	bTCPHdrLen
	bTCPFlags
	bTCPFlagCWR
	bTCPFlagECE
	bTCPFlagURG
	bTCPFlagACK
	bTCPFlagPSH
	bTCPFlagRST
	bTCPFlagSYN
	bTCPFlagFIN
	bTCPWinRaw
	bTCPWin
	bTCPWinScale
	bTCPChecksum
	bTCPUrgent
	bTCPOptions
	bUDPSrcPort
	bUDPDstPort
	bUDPPort
	bUDPLength
	bUDPChecksum
	bICMPType
	bICMPCode
	bICMPChecksum
	bICMPUnused
	bICMPRest
	bICMP6Type
	bICMP6Code
	bICMP6Checksum
	bICMP6Reserved
	bICMP6Rest
	nFields
)

// nRoots is how many layers' own fields come first, nBits how many bits
// there are, a node bit for each layer after the fields' (nodeOf).
const (
	nRoots = bICMP6 + 1
	nBits  = nFields + nRoots
)

// The set is two words.
var _ [128 - nBits]struct{}

// roots are the layers' own fields: their bits ask for their lines.
var roots = [...]bit{bFrame, bEth, bVLAN, bSLL, bNull, bIP, bIPv6, bTCP, bUDP, bICMP, bICMP6}

// fieldOf is the field of each bit; bitOf the bit of each field.
var fieldOf = [nFields]*dissect.Field{
	bFrame:          RegFrame.Root(),
	bEth:            RegEth.Root(),
	bVLAN:           RegVLAN.Root(),
	bSLL:            RegSLL.Root(),
	bNull:           RegNull.Root(),
	bIP:             RegIP.Root(),
	bIPv6:           RegIPv6.Root(),
	bTCP:            RegTCP.Root(),
	bUDP:            RegUDP.Root(),
	bICMP:           RegICMP.Root(),
	bICMP6:          RegICMP6.Root(),
	bFrameNumber:    FieldFrameNumber,
	bFrameTime:      FieldFrameTime,
	bFrameEpoch:     FieldFrameEpoch,
	bFrameDelta:     FieldFrameDelta,
	bFrameRelative:  FieldFrameRelative,
	bFrameLen:       FieldFrameLen,
	bFrameCapLen:    FieldFrameCapLen,
	bFrameProtocols: FieldFrameProtocols,
	bEthDst:         FieldEthDst,
	bEthSrc:         FieldEthSrc,
	bEthType:        FieldEthType,
	bEthAddr:        FieldEthAddr,
	bVLANPriority:   FieldVLANPriority,
	bVLANID:         FieldVLANID,
	bVLANType:       FieldVLANType,
	bVLANTPID:       FieldVLANTPID,
	bSLLPktType:     FieldSLLPktType,
	bSLLType:        FieldSLLType,
	bSLLIfIndex:     FieldSLLIfIndex,
	bSLLOther:       FieldSLLOther,
	bNullFamily:     FieldNullFamily,
	bIPVersion:      FieldIPVersion,
	bIPHdrLen:       FieldIPHdrLen,
	bIPDSField:      FieldIPDSField,
	bIPLen:          FieldIPLen,
	bIPID:           FieldIPID,
	bIPFlags:        FieldIPFlags,
	bIPFlagDF:       FieldIPFlagDF,
	bIPFlagMF:       FieldIPFlagMF,
	bIPFragOff:      FieldIPFragOff,
	bIPTTL:          FieldIPTTL,
	bIPProto:        FieldIPProto,
	bIPChecksum:     FieldIPChecksum,
	bIPOptions:      FieldIPOptions,
	bIPSrc:          FieldIPSrc,
	bIPDst:          FieldIPDst,
	bIPAddr:         FieldIPAddr,
	bIPv6Version:    FieldIPv6Version,
	bIPv6TClass:     FieldIPv6TClass,
	bIPv6Flow:       FieldIPv6Flow,
	bIPv6PLen:       FieldIPv6PLen,
	bIPv6Nxt:        FieldIPv6Nxt,
	bIPv6HLim:       FieldIPv6HLim,
	bIPv6Src:        FieldIPv6Src,
	bIPv6Dst:        FieldIPv6Dst,
	bIPv6Addr:       FieldIPv6Addr,
	bIPv6Ext:        FieldIPv6Ext,
	bTCPSrcPort:     FieldTCPSrcPort,
	bTCPDstPort:     FieldTCPDstPort,
	bTCPPort:        FieldTCPPort,
	bTCPStream:      FieldTCPStream,
	bTCPLen:         FieldTCPLen,
	bTCPSeq:         FieldTCPSeq,
	bTCPSeqRaw:      FieldTCPSeqRaw,
	bTCPAck:         FieldTCPAck,
	bTCPAckRaw:      FieldTCPAckRaw,
	bTCPHdrLen:      FieldTCPHdrLen,
	bTCPFlags:       FieldTCPFlags,
	bTCPFlagCWR:     FieldTCPFlagCWR,
	bTCPFlagECE:     FieldTCPFlagECE,
	bTCPFlagURG:     FieldTCPFlagURG,
	bTCPFlagACK:     FieldTCPFlagACK,
	bTCPFlagPSH:     FieldTCPFlagPSH,
	bTCPFlagRST:     FieldTCPFlagRST,
	bTCPFlagSYN:     FieldTCPFlagSYN,
	bTCPFlagFIN:     FieldTCPFlagFIN,
	bTCPWinRaw:      FieldTCPWinRaw,
	bTCPWin:         FieldTCPWin,
	bTCPWinScale:    FieldTCPWinScale,
	bTCPChecksum:    FieldTCPChecksum,
	bTCPUrgent:      FieldTCPUrgent,
	bTCPOptions:     FieldTCPOptions,
	bUDPSrcPort:     FieldUDPSrcPort,
	bUDPDstPort:     FieldUDPDstPort,
	bUDPPort:        FieldUDPPort,
	bUDPLength:      FieldUDPLength,
	bUDPChecksum:    FieldUDPChecksum,
	bICMPType:       FieldICMPType,
	bICMPCode:       FieldICMPCode,
	bICMPChecksum:   FieldICMPChecksum,
	bICMPUnused:     FieldICMPUnused,
	bICMPRest:       FieldICMPRest,
	bICMP6Type:      FieldICMP6Type,
	bICMP6Code:      FieldICMP6Code,
	bICMP6Checksum:  FieldICMP6Checksum,
	bICMP6Reserved:  FieldICMP6Reserved,
	bICMP6Rest:      FieldICMP6Rest,
}

var bitOf = make(map[*dissect.Field]bit, nFields)
