package render

import "bufio"

// batchWriter is how a renderer writes: records are formatted into buf and
// handed to w once they are more than w buffers, in one Write, which a
// bufio.Writer holding nothing passes straight on: output bytes are copied
// once, not into its buffer first. Flush and Raw hand over what buf holds
// first, so that order and the periodic flush (live output) are kept.
type batchWriter struct {
	w   *bufio.Writer
	buf []byte
}

// spill hands buf to w once it holds more than w buffers.
func (b *batchWriter) spill() error {
	if len(b.buf) <= b.w.Size() {
		return nil
	}
	return b.give()
}

// give hands w what buf holds.
func (b *batchWriter) give() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf)
	b.buf = b.buf[:0]
	return err
}

// Flush writes out what buf and w hold.
func (b *batchWriter) Flush() error {
	if err := b.give(); err != nil {
		return err
	}
	return b.w.Flush()
}

// raw writes p after what buf holds.
func (b *batchWriter) raw(p []byte) error {
	if err := b.give(); err != nil {
		return err
	}
	_, err := b.w.Write(p)
	return err
}
