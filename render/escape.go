package render

import "slices"

// escapeTail replaces, in place, each byte c of b[start:] with esc[c]
// when that is not "". It allocates nothing but b's growth: the bytes are
// moved right from the end, each escape written as it is reached.
func escapeTail(b []byte, start int, esc *[256]string) []byte {
	extra := 0
	for _, c := range b[start:] {
		if e := esc[c]; e != "" {
			extra += len(e) - 1
		}
	}
	if extra == 0 {
		return b
	}
	n := len(b)
	b = slices.Grow(b, extra)[:n+extra]
	w := len(b)
	for r := n - 1; r >= start && w > r+1; r-- {
		c := b[r]
		if e := esc[c]; e != "" {
			w -= len(e)
			copy(b[w:], e)
			continue
		}
		w--
		b[w] = c
	}
	return b
}
