package classic

import (
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
)

// dumpTree renders p one node per line, for failure messages and goldens.
func dumpTree(p *dissect.PDU) string {
	var b strings.Builder
	b.WriteString(p.Dir.String() + " " + p.Message + " | " + p.Info + "\n")
	for i := range p.Nodes {
		n := &p.Nodes[i]
		b.WriteString(strings.Repeat("  ", p.Depth(int32(i))))
		b.WriteString(n.Name())
		b.WriteString(" = ")
		b.Write(dissect.AppendValue(nil, n))
		if n.Flags&dissect.FlagGenerated != 0 {
			b.WriteString(" [generated]")
		} else {
			b.WriteString(" [" + itoa(int(n.Offset)) + "+" + itoa(int(n.Length)) + "]")
		}
		if n.Flags&dissect.FlagSensitive != 0 {
			b.WriteString(" [sensitive]")
		}
		b.WriteByte('\n')
		for _, e := range p.Experts {
			if int(e.Node) == i {
				b.WriteString(strings.Repeat("  ", p.Depth(int32(i))+1) + "expert " + e.Info.Severity.String() + " " + e.Info.Name + ": " + e.Msg + "\n")
			}
		}
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }
