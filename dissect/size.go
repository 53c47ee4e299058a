package dissect

import "unsafe"

// MadeBytes is about how many bytes the texts and values a decoder made
// for p hold beyond its Data: node texts, string values that are not
// views of Data, the Info, expert messages. Texts that share one string
// are counted once per node, so it errs high: it is what a holder of
// the PDU charges to the memory budget, which must not be fooled by a
// tree that holds several times its bytes (a 2 MB status JSON shown as
// text, as .plain and in the Info).
func (p *PDU) MadeBytes() int {
	n := len(p.Info) + len(p.Message)
	var lo, hi uintptr
	if len(p.Data) > 0 {
		lo = uintptr(unsafe.Pointer(unsafe.SliceData(p.Data)))
		hi = lo + uintptr(len(p.Data))
	}
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		n += len(nd.Text)
		if b := nd.Value.B; len(b) > 0 {
			if a := uintptr(unsafe.Pointer(unsafe.SliceData(b))); a < lo || a >= hi {
				n += len(b)
			}
		}
	}
	for i := range p.Experts {
		n += len(p.Experts[i].Msg)
	}
	return n
}
