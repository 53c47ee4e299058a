package mcgen

import (
	"net/netip"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// backend writes packets. Two implement it: fastWriter (the default, built
// for speed) and capWriter (internal/capgen, gopacket's serialisation), which
// write byte-identical files; the test checks they do.
type backend interface {
	udp(us int64, src, dst netip.AddrPort, payload []byte)
	tcp(client, server netip.AddrPort, us int64, isnClient, isnServer uint32) tcpConn
	written() int64 // bytes of pcap written so far
	close() error
}

// tcpConn is the part of capgen.TCPConn the generator uses; times are
// microseconds since the Unix epoch.
type tcpConn interface {
	setNow(us int64)
	now() int64
	handshake()
	segmentAt(fromClient bool, off int, data []byte)
	close()
	reset(fromClient bool)
}

// capWriter is the capgen backend.
type capWriter struct {
	w     *capgen.Writer
	count *countWriter
}

func (c *capWriter) udp(us int64, src, dst netip.AddrPort, payload []byte) {
	c.w.UDP(time.UnixMicro(us).UTC(), src, dst, payload)
}

func (c *capWriter) tcp(client, server netip.AddrPort, us int64, isnC, isnS uint32) tcpConn {
	tc := c.w.TCP(client, server, time.UnixMicro(us).UTC())
	tc.SetISN(isnC, isnS)
	return capConn{tc}
}

func (c *capWriter) written() int64 { return c.count.n }
func (c *capWriter) close() error   { return c.w.Close() }

type capConn struct{ c *capgen.TCPConn }

func (c capConn) setNow(us int64)                      { c.c.Now = time.UnixMicro(us).UTC() }
func (c capConn) now() int64                           { return c.c.Now.UnixMicro() }
func (c capConn) handshake()                           { c.c.Handshake() }
func (c capConn) segmentAt(fc bool, off int, d []byte) { c.c.SegmentAt(fc, off, d) }
func (c capConn) close()                               { c.c.Close() }
func (c capConn) reset(fromClient bool)                { c.c.Reset(fromClient) }
