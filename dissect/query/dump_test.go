package query

import (
	"fmt"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

// dump renders p as an indented tree, one node per line, with experts: the
// tests' view of a PDU.
func dump(p *dissect.PDU) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s | %s | %s\n", p.Dir, p.Message, p.Info)
	for i := range p.Nodes {
		n := &p.Nodes[i]
		ind := strings.Repeat("  ", p.Depth(int32(i)))
		gen := ""
		if n.Flags&dissect.FlagGenerated != 0 {
			gen = " [generated]"
		}
		if n.Flags&dissect.FlagLittleEndian != 0 {
			gen += " [LE]"
		}
		if n.Flags&dissect.FlagTruncated != 0 {
			gen += " [truncated]"
		}
		if n.Flags&dissect.FlagMalformed != 0 {
			gen += " [malformed]"
		}
		fmt.Fprintf(&b, "%s%s [%d+%d] = %s%s\n", ind, n.Name(), n.Offset, n.Length, dissecttest.Display(n), gen)
		for _, e := range p.Experts {
			if int(e.Node) == i {
				fmt.Fprintf(&b, "%s  !! %s %s: %s\n", ind, e.Info.Severity, e.Info.Name, e.Msg)
			}
		}
	}
	return b.String()
}
