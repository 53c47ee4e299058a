package dissect

import (
	"fmt"
	"testing"
)

var tEnd = testReg.Uint("dtest.end", "End", BaseDec, nil)

// cstringsByHand is the loop CStrings replaces: CString by CString until
// an empty string.
func cstringsByHand(c *Cursor, each func(int32, []byte)) (n int) {
	for !c.Failed() {
		if c.Remaining() == 0 {
			c.Fail(tEnd, "no empty string ends the list")
			break
		}
		if c.Peek(1)[0] == 0 {
			c.Take(tEnd, 1)
			break
		}
		s, i := c.CString(tS)
		if i >= 0 && !c.Failed() { // a string without its NUL is the failure's, not the list's
			n++
			if i > 0 {
				each(i, s)
			}
		}
	}
	return n
}

// walkList reads a u8, the list, and whatever follows as a u8.
func walkList(p *PDU, data []byte, wire int, list func(*Cursor, func(int32, []byte)) int) (n int, seen []string, off int) {
	c := Begin(p, testReg.Root(), data, wire)
	c.Uint8(tA)
	n = list(&c, func(i int32, s []byte) { seen = append(seen, fmt.Sprintf("%d:%s", i, s)) })
	off = c.Off()
	c.Uint8(tA)
	c.Finish()
	return n, seen, off
}

func dump(p *PDU) string {
	s := ""
	for _, n := range p.Nodes {
		s += fmt.Sprintf("%s[%d,+%d]%q/%d ", n.Name(), n.Offset, n.Length, n.Value.B, n.Flags)
	}
	for _, e := range p.Experts {
		s += fmt.Sprintf("!%d %s: %s ", e.Node, e.Info.Name, e.Msg)
	}
	return s
}

// TestCStrings: CStrings builds the tree, the failures and the count of
// the loop it replaces, on every cut of a few lists, and in a Lite PDU
// the same count, offset and expert items, calling each for no node.
func TestCStrings(t *testing.T) {
	lists := map[string]string{
		"names":    "\x07ab\x00c\x00\x00\x09",
		"empty":    "\x07\x00\x09",
		"no end":   "\x07ab\x00c\x00",
		"no nul":   "\x07ab\x00cd",
		"nothing":  "\x07",
		"long one": "\x07abcdefghijklmnop\x00\x00",
	}
	byList := func(c *Cursor, each func(int32, []byte)) int {
		return c.CStrings(tS, tEnd, "no empty string ends the list", each)
	}
	for name, msg := range lists {
		t.Run(name, func(t *testing.T) {
			data := []byte(msg)
			for cut := 0; cut <= len(data); cut++ {
				for _, wire := range []int{cut, len(data)} { // a short PDU, a capture's cut
					var want, got, lite PDU
					wn, wseen, woff := walkList(&want, data[:cut], wire, cstringsByHand)
					gn, gseen, goff := walkList(&got, data[:cut], wire, byList)
					if wn != gn || woff != goff || fmt.Sprint(wseen) != fmt.Sprint(gseen) || dump(&want) != dump(&got) {
						t.Fatalf("cut %d of %d: CStrings gives %d at %d %v\n%s\nwant %d at %d %v\n%s", cut, wire, gn, goff, gseen, dump(&got), wn, woff, wseen, dump(&want))
					}
					if err := Check(&got); err != nil {
						t.Fatalf("cut %d of %d: %v", cut, wire, err)
					}
					lite.Lite = true
					ln, lseen, loff := walkList(&lite, data[:cut], wire, byList)
					if ln != gn || loff != goff || len(lseen) != 0 || len(lite.Experts) != len(got.Experts) {
						t.Fatalf("cut %d of %d: Lite gives %d at %d, each %v, %d expert items; full %d at %d, %d", cut, wire, ln, loff, lseen, len(lite.Experts), gn, goff, len(got.Experts))
					}
				}
			}
		})
	}
}
