package ship

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// IDs makes document IDs that are the same each time a record is sent,
// so that a resend is recognised (Elasticsearch and OpenSearch keep one
// document per ID): host/source/frame/index/time, e.g.
//
//	srv1/eth0/4/0/1795357980359425000
//
// frame is the record's frame number, index its place among the records
// of that frame (a TCP segment may complete several PDUs), time the
// frame's capture time in nanoseconds since the epoch. The time keeps
// apart two live runs on one interface, whose frame numbers both start
// at 1; a file read twice gives the same IDs, and its documents are
// replaced rather than doubled. Records arrive in frame order (the
// pipeline releases them so), which is what the index counts on.
type IDs struct {
	prefix []byte
	frame  uint64
	n      int
	seen   bool
	buf    []byte
}

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

// Next returns the ID of the next record, of frame frame captured at t.
func (g *IDs) Next(frame uint64, t time.Time) string {
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
	return string(g.buf)
}
