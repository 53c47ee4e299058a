package stats

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcdissect/mcdissect/record"
)

// phsStat is -z io,phs: the protocol hierarchy, every frame counted (with
// its length on the wire) under each protocol of its stack, in tshark's
// layout, children in order of first appearance. The link, network and
// transport layers are named as tshark names them (eth, sll, ip, ipv6,
// tcp, udp); the payload is the Minecraft protocol that reads it (query,
// slp, classic, raknet), or data when none does, where tshark, which
// dissects no Minecraft protocol, says data (or raknet, by its own
// heuristic). 802.1Q tags are not a level of their own here.
type phsStat struct {
	frames
	root phsNode
}

type phsNode struct {
	name          string
	frames, bytes int
	children      []*phsNode
}

func (n *phsNode) child(name string) *phsNode {
	for _, c := range n.children {
		if c.name == name {
			return c
		}
	}
	// A frame's stack is a few levels and a level a few protocols: no
	// bound needed.
	c := &phsNode{name: name}
	n.children = append(n.children, c)
	return c
}

// linkNames are tshark's names of the link layers mcdissect reads, by
// pcap link type.
var linkNames = map[uint32]string{
	0:   "null",
	1:   "eth",
	12:  "raw",
	101: "raw",
	108: "loop",
	113: "sll",
	228: "raw",
	229: "raw",
	276: "sll",
}

func (s *phsStat) Frame(f record.FrameInfo) {
	n := &s.root
	step := func(name string) {
		n = n.child(name)
		n.frames++
		n.bytes += f.Len
	}
	link, ok := linkNames[f.Link]
	if !ok {
		link = fmt.Sprintf("link type %d", f.Link)
	}
	step(link)
	if !f.IP {
		return
	}
	if f.Src.Addr().Is6() {
		step("ipv6")
	} else {
		step("ip")
	}
	switch f.Transport {
	case 6:
		step("tcp")
	case 17:
		step("udp")
	default:
		return
	}
	if len(f.Payload) == 0 {
		return
	}
	if f.Proto != "" {
		step(f.Proto)
	} else {
		step("data")
	}
}

func (s *phsStat) Print(w io.Writer) {
	const sep = "===================================================================\n"
	fmt.Fprint(w, "\n", sep, "Protocol Hierarchy Statistics\nFilter: \n\n")
	var draw func(n *phsNode, depth int)
	draw = func(n *phsNode, depth int) {
		for _, c := range n.children {
			name := strings.Repeat("  ", depth) + c.name
			fmt.Fprintf(w, "%-40s frames:%d bytes:%d\n", name, c.frames, c.bytes)
			draw(c, depth+1)
		}
	}
	draw(&s.root, 0)
	fmt.Fprint(w, sep)
}

func (*phsStat) Reads() Reads { return Reads{Frames: true} }
