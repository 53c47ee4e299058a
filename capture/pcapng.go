package capture

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// ngReader reads pcapng with bounded memory. gopacket 1.1.19's reader is
// not used because it allocates whatever snap length or capture length a
// file claims (4 GiB from a hostile header) and, unless told otherwise,
// silently skips packets of interfaces whose link type differs from the
// first one's. This one keeps one buffer of at most MaxSnaplen bytes,
// skips blocks it does not need without reading them into memory, and
// gives each packet its own interface's link type and timestamp unit.
type ngReader struct {
	fileBase
	r      *bufio.Reader
	order  binary.ByteOrder
	ifaces []ngIface
	hdr    [28]byte
	buf    []byte
}

type ngIface struct {
	link    layers.LinkType
	snaplen uint32
	// A timestamp counts units of 10^-exp10 seconds, or of 2^-exp2.
	unit time.Duration // 0 when the unit is finer than a nanosecond
	div  uint64        // for units finer than a nanosecond: ticks per nanosecond
}

const (
	ngSHB = 0x0A0D0D0A
	ngIDB = 1
	ngOPB = 2 // obsolete packet block
	ngSPB = 3
	ngEPB = 6

	ngMaxBlock = MaxSnaplen + 64<<10 // a packet block: data plus room for options
)

var errNgFormat = errors.New("pcapng")

func newNgReader(r *bufio.Reader) (*ngReader, error) {
	n := &ngReader{r: r}
	typ, body, err := n.blockHeader()
	if err != nil {
		return nil, err
	}
	if typ != ngSHB {
		return nil, fmt.Errorf("%w: no section header block", errNgFormat)
	}
	if err := n.section(body); err != nil {
		return nil, err
	}
	return n, nil
}

// blockHeader reads a block's type and length and returns the length of
// its body (without the trailing length copy). A section header block sets
// the byte order, so its length is read after its byte-order magic.
func (n *ngReader) blockHeader() (typ uint32, body int, err error) {
	if _, err = io.ReadFull(n.r, n.hdr[:8]); err != nil {
		return 0, 0, err
	}
	typ = binary.LittleEndian.Uint32(n.hdr[:4])
	if typ == ngSHB {
		if _, err = io.ReadFull(n.r, n.hdr[8:12]); err != nil {
			return 0, 0, unexpected(err)
		}
		switch binary.LittleEndian.Uint32(n.hdr[8:12]) {
		case 0x1A2B3C4D:
			n.order = binary.LittleEndian
		case 0x4D3C2B1A:
			n.order = binary.BigEndian
		default:
			return 0, 0, fmt.Errorf("%w: bad byte-order magic", errNgFormat)
		}
		l := n.order.Uint32(n.hdr[4:8])
		if l < 28 || l%4 != 0 {
			return 0, 0, fmt.Errorf("%w: section header block of %d bytes", errNgFormat, l)
		}
		return typ, int(l) - 12 - 4, nil
	}
	if n.order == nil {
		return 0, 0, fmt.Errorf("%w: no section header block", errNgFormat)
	}
	typ = n.order.Uint32(n.hdr[:4])
	l := n.order.Uint32(n.hdr[4:8])
	if l < 12 || l%4 != 0 {
		return 0, 0, fmt.Errorf("%w: block of %d bytes", errNgFormat, l)
	}
	return typ, int(l) - 12, nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// skip discards n bytes plus the trailing block length.
func (n *ngReader) skip(body int) error {
	_, err := n.r.Discard(body + 4)
	return unexpected(err)
}

// section starts a new section: interfaces are numbered afresh.
func (n *ngReader) section(body int) error {
	n.ifaces = n.ifaces[:0]
	return n.skip(body)
}

// read fills n.buf with a block body that must be small.
func (n *ngReader) read(body int) ([]byte, error) {
	if body > ngMaxBlock {
		return nil, fmt.Errorf("%w: a %d-byte block exceeds the %d-byte limit", errNgFormat, body, ngMaxBlock)
	}
	if cap(n.buf) < body+4 {
		n.buf = make([]byte, body+4)
	}
	b := n.buf[:body+4]
	if _, err := io.ReadFull(n.r, b); err != nil {
		return nil, unexpected(err)
	}
	return b[:body], nil
}

func (n *ngReader) iface(body int) error {
	b, err := n.read(body)
	if err != nil {
		return err
	}
	if len(b) < 8 {
		return fmt.Errorf("%w: interface block of %d bytes", errNgFormat, len(b))
	}
	ifc := ngIface{link: linkType(n.order.Uint16(b[0:2])), snaplen: n.order.Uint32(b[4:8]), unit: time.Microsecond}
	for opts := b[8:]; len(opts) >= 4; {
		code, l := n.order.Uint16(opts[0:2]), int(n.order.Uint16(opts[2:4]))
		if code == 0 || 4+l > len(opts) {
			break
		}
		if code == 9 && l >= 1 { // if_tsresol
			v := opts[4]
			var perSec float64
			if v&0x80 == 0 {
				perSec = math.Pow(10, float64(v))
			} else {
				perSec = math.Pow(2, float64(v&0x7f))
			}
			if perSec <= 1e9 {
				ifc.unit = time.Duration(1e9 / perSec)
			} else {
				ifc.unit, ifc.div = 0, uint64(perSec/1e9)
			}
		}
		opts = opts[4+(l+3)&^3:]
	}
	n.ifaces = append(n.ifaces, ifc)
	return nil
}

// linkType is a pcapng interface's LINKTYPE as gopacket's type (16 bits).
func linkType(v uint16) layers.LinkType { return layers.LinkType(v) }

func (n *ngReader) Next() (Packet, error) {
	if n.done || n.stopped.Load() {
		return Packet{}, io.EOF
	}
	d, ci, link, err := n.next()
	if err != nil {
		return Packet{}, n.end(err)
	}
	n.count()
	return Packet{Data: d, Info: ci, LinkType: link}, nil
}

func (n *ngReader) next() ([]byte, gopacket.CaptureInfo, layers.LinkType, error) {
	for {
		typ, body, err := n.blockHeader()
		if err != nil {
			return nil, gopacket.CaptureInfo{}, 0, err
		}
		switch typ {
		case ngSHB:
			if err := n.section(body); err != nil {
				return nil, gopacket.CaptureInfo{}, 0, err
			}
		case ngIDB:
			if err := n.iface(body); err != nil {
				return nil, gopacket.CaptureInfo{}, 0, err
			}
		case ngEPB, ngOPB, ngSPB:
			b, err := n.read(body)
			if err != nil {
				return nil, gopacket.CaptureInfo{}, 0, err
			}
			return n.packet(typ, b)
		default:
			if err := n.skip(body); err != nil {
				return nil, gopacket.CaptureInfo{}, 0, err
			}
		}
	}
}

func (n *ngReader) packet(typ uint32, b []byte) ([]byte, gopacket.CaptureInfo, layers.LinkType, error) {
	var ci gopacket.CaptureInfo
	var id int
	var ts uint64
	var data []byte
	switch typ {
	case ngEPB, ngOPB:
		if len(b) < 20 {
			return nil, ci, 0, fmt.Errorf("%w: packet block of %d bytes", errNgFormat, len(b))
		}
		if typ == ngEPB {
			id = int(n.order.Uint32(b[0:4]))
		} else {
			id = int(n.order.Uint16(b[0:2]))
		}
		ts = uint64(n.order.Uint32(b[4:8]))<<32 | uint64(n.order.Uint32(b[8:12]))
		capLen, wire := int(n.order.Uint32(b[12:16])), int(n.order.Uint32(b[16:20]))
		if capLen > len(b)-20 {
			return nil, ci, 0, fmt.Errorf("%w: a packet claims %d captured bytes in a %d-byte block", errNgFormat, capLen, len(b))
		}
		data = b[20 : 20+capLen]
		ci.Length = max(wire, capLen)
	case ngSPB:
		if len(b) < 4 || len(n.ifaces) == 0 {
			return nil, ci, 0, fmt.Errorf("%w: simple packet block without an interface", errNgFormat)
		}
		wire := int(n.order.Uint32(b[0:4]))
		capLen := min(wire, len(b)-4)
		if s := int(n.ifaces[0].snaplen); s > 0 && capLen > s {
			capLen = s
		}
		data = b[4 : 4+capLen]
		ci.Length = max(wire, capLen)
	}
	if id >= len(n.ifaces) {
		return nil, ci, 0, fmt.Errorf("%w: packet on interface %d, but the section declares %d", errNgFormat, id, len(n.ifaces))
	}
	ifc := &n.ifaces[id]
	ci.CaptureLength, ci.InterfaceIndex = len(data), id
	if typ != ngSPB {
		if ifc.unit > 0 {
			ci.Timestamp = time.Unix(0, 0).Add(time.Duration(ts) * ifc.unit).UTC()
		} else {
			ci.Timestamp = time.Unix(0, int64(ts/ifc.div)).UTC()
		}
	}
	return data, ci, ifc.link, nil
}
