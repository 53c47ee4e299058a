package slp

// inflateHead inflates the first n bytes of zlib data z into the
// connection's inflate buffer and returns them (valid until the next
// inflation), with the result inflateAll(z, n) has. It asks for one byte
// more, because zlib reports the error of a stream that breaks right
// after n bytes with them.
func (c *Conn) inflateHead(z []byte, n int) ([]byte, error) {
	out, err := c.inflateAll(z, int64(n)+1)
	return out[:min(len(out), n)], err
}
