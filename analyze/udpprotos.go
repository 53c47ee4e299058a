package analyze

import (
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/query"
	"github.com/mcdissect/mcdissect/dissect/raknet"
)

// udpProtocols is the table of the UDP protocols, as tcpProtocols is of
// the TCP ones, in the order their heuristics are asked: the back end
// decodes and tracks a datagram through its entry, and nothing past
// routing names a protocol. A job says which entry by its index (job.udp).
// Query and RakNet share port 25565 on servers that run Geyser; RakNet's
// magic tells them apart.
var udpProtocols = []udpProto{
	{name: "raknet", port: PortBedrock, looks: raknet.Looks, decode: raknet.Decode, proof: true},
	{name: "query", port: PortMinecraft, looks: query.Looks, decode: query.Decode, learn: true,
		newTracker: func(l *dissect.Later) tracker { t := query.NewTracker(); t.Later = l; return t }, window: query.ResponseWindow, bigResponse: 256},
}

// Indexes in udpProtocols.
const (
	udpRakNet uint8 = iota
	udpQuery
)

// udpNone is a datagram job's udp for records of no UDP protocol (IP
// fragments never completed): their protocol is "ip".
const udpNone uint8 = 255

// datagramProto is the mc.protocol of a datagram job's records.
func datagramProto(p uint8) string {
	if int(p) < len(udpProtocols) {
		return udpProtocols[p].name
	}
	return "ip"
}

func udpProtoByName(name string) (uint8, bool) {
	for i := range udpProtocols {
		if udpProtocols[i].name == name {
			return uint8(i), true
		}
	}
	return 0, false
}

// udpProto is one UDP protocol.
type udpProto struct {
	name   string                                   // for -d, and mc.protocol of its records
	port   uint16                                   // its default server port
	looks  func(payload []byte) (dissect.Dir, bool) // the heuristic, on any port
	decode func(p *dissect.PDU, data []byte, wire int, dir dissect.Dir)
	// newTracker makes the state that links its datagrams (nil: none),
	// with a two-pass run's Later (Options.Later).
	newTracker func(*dissect.Later) tracker
	// window: how long, in packet time, its tracker waits for a response.
	window time.Duration
	// bigResponse: a response longer than this most likely needs a big
	// tree (a Query full stat): its record comes from the big pool.
	bigResponse int
	// proof: looks matches only by a long constant (RakNet's 16-byte
	// magic), so a match wins over another protocol's port.
	proof bool
	// learn: a heuristic match teaches the server's address, as its
	// replies have weaker shapes (Query).
	learn bool
}

// tracker follows a UDP protocol's conversations across datagrams, at
// packet time: it links each request to its response, and holds requests
// (PDU.Pending) until then; the back end releases records in order.
type tracker interface {
	Observe(m dissect.Meta, p *dissect.PDU)
	// Expire gives up on requests whose window has passed at now.
	Expire(now time.Time)
	// GiveUp gives up on the request p: too much waits behind it.
	GiveUp(p *dissect.PDU)
	// Close gives up on every request: the input ended.
	Close()
}

// newTrackers makes a back end's trackers, one per UDP protocol (nil
// where a protocol has none).
func newTrackers(later *dissect.Later) []tracker {
	ts := make([]tracker, len(udpProtocols))
	for i, p := range udpProtocols {
		if p.newTracker != nil {
			ts[i] = p.newTracker(later)
		}
	}
	return ts
}

// maxWindow is the longest response window of the UDP protocols.
func maxWindow() time.Duration {
	var w time.Duration
	for _, p := range udpProtocols {
		w = max(w, p.window)
	}
	return w
}

// expire runs every tracker's Expire at the back end's packet time.
func (a *backEnd) expire() {
	for _, t := range a.trackers {
		if t != nil {
			t.Expire(a.bnow)
		}
	}
}
