package ship

import (
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"strconv"
	"time"
)

// IDs makes document IDs that are the same each time a record is sent,
// so that a resend is recognised (Elasticsearch and OpenSearch keep one
// document per ID): host/source/frame/index/time/checksum, e.g.
//
//	srv1/eth0/4/0/1795357980359425000/9a3c01f2
//
// frame is the record's frame number, index its place among the records
// of that frame that come one after another (a TCP segment may complete
// several PDUs), time the frame's capture time in nanoseconds since the
// epoch, checksum the CRC-32C of the document. The time keeps apart two
// live runs on one interface, whose frame numbers both start at 1. The
// checksum keeps apart a record that its frame decides later, after
// records of other frames (a gap found when its connection ends, at the
// connection's last frame), whose index starts again at 0. A file read
// twice gives the same IDs, and its documents are replaced rather than
// doubled.
type IDs struct {
	prefix []byte
	frame  uint64
	n      int
	seen   bool
	buf    []byte
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// NewIDs returns the IDs of a capture's records. A source so long that
// the ID would pass Elasticsearch's 512 bytes is replaced by a hash of it.
func NewIDs(host, source string) *IDs {
	if len(host)+len(source) > 400 {
		h := sha256.Sum256([]byte(source))
		source = "sha256-" + hex.EncodeToString(h[:12])
		if len(host) > 300 {
			h := sha256.Sum256([]byte(host))
			host = "sha256-" + hex.EncodeToString(h[:12])
		}
	}
	return &IDs{prefix: []byte(host + "/" + source + "/")}
}

// NewIDs returns the IDs of the records of the capture s ships
// (Config.Host and Config.Source).
func (s *Shipper) NewIDs() *IDs { return NewIDs(s.cfg.Host, s.cfg.Source) }

// Envelope is the most a document grows by on its way to the engine: the
// envelope members and its record_id, whose host and source are the
// envelope's own, escaped, then numbers and a checksum.
func (s *Shipper) Envelope() int { return 2*len(s.env) + 96 }

// Next returns the ID of the next record, of frame frame captured at t,
// whose document is doc.
func (g *IDs) Next(frame uint64, t time.Time, doc []byte) string {
	if g.seen && frame == g.frame {
		g.n++
	} else {
		g.frame, g.n, g.seen = frame, 0, true
	}
	g.buf = append(g.buf[:0], g.prefix...)
	g.buf = strconv.AppendUint(g.buf, frame, 10)
	g.buf = append(g.buf, '/')
	g.buf = strconv.AppendInt(g.buf, int64(g.n), 10)
	g.buf = append(g.buf, '/')
	g.buf = strconv.AppendInt(g.buf, t.UnixNano(), 10)
	g.buf = append(g.buf, '/')
	sum := crc32.Checksum(doc, castagnoli)
	for i := 28; i >= 0; i -= 4 {
		g.buf = append(g.buf, hexDigits[sum>>i&15])
	}
	return string(g.buf)
}
