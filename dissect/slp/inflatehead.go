package slp

import "github.com/mcdissect/mcdissect/dissect/inflate"

// inflateHead inflates the first n bytes of zlib data z into the
// connection's inflate buffer and returns them (valid until the next
// inflation), with the result inflateAll(z, n) has: dissect/inflate stops
// there, where compress/zlib inflates up to its 32 KiB window before it
// returns a byte. It asks for one byte more, because zlib reports the
// error of a stream that breaks right after n bytes with them.
func (c *Conn) inflateHead(z []byte, n int) ([]byte, error) {
	c.borrow()
	if c.inf == nil {
		c.inf = new(inflate.Decoder)
	}
	out, err := c.inf.Prefix(c.ibuf[:0], z, n+1)
	c.ibuf = out[:0]
	return out[:min(len(out), n)], err
}
