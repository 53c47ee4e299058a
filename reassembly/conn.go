package reassembly

import (
	"net/netip"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// connKey identifies a connection by the addresses and ports of its first
// segment. Ports are taken from layers.TCP's exported fields, not from
// TransportFlow, which is empty for TCP structs that were not decoded.
type connKey struct {
	net          gopacket.Flow
	sport, dport uint16
}

// is compares two keys ports first, so that a different connection (nearly
// always another client port) is told apart without comparing addresses.
func (k *connKey) is(o *connKey) bool {
	return k.sport == o.sport && k.dport == o.dport && k.net == o.net
}

// hash is the same for a key and its reverse: a connection is in the fast
// table once, for both directions. Keys that collide there go to the full
// table, so a weak or hostile hash only costs time.
//
// What the fast table buys over the full one alone (issue 12,
// bench/fastpaths.md; CPU user+sys, paired median of interleaved runs on
// 100 MB mcgen mixes): without it the summary costs 13.5 % more on the slp
// mix (some 14 000 connections in 29 s), 9.5 % on onebyte, 4 % on project.
// TestLookupBothWays holds both tables to the same answers.
func (k *connKey) hash() uint64 {
	lo, hi := k.sport, k.dport
	if lo > hi {
		lo, hi = hi, lo
	}
	return k.net.FastHash() ^ (uint64(lo)<<16|uint64(hi))*0x9E3779B97F4A7C15
}

func (k connKey) reverse() connKey {
	return connKey{net: k.net.Reverse(), sport: k.dport, dport: k.sport}
}

// connRef is a connection as the table finds it: forward when the key
// looked up is the connection's own key, not its reverse.
type connRef struct {
	c       *conn
	forward bool
}

// conn is one tracked TCP connection.
type conn struct {
	info        ConnInfo
	h           ConnHandler
	key         connKey
	rkey        connKey // key.reverse(): segments the other way
	clientIsSrc bool    // key's source is the client
	half        [2]half
	fast        bool      // in the fast table (else in the full one, under key and rkey)
	made        bool      // the handler was made (at the first payload byte: handlerFor)
	closed      bool      // FIN both ways, RST, idle or port reuse: no more data
	removed     bool      // dropped from the table; kept out of r.order next sweep
	pendCap     int       // cap of both directions' PDU buffers, for the per-conn limit
	charged     int64     // bytes charged to Account for it: its entry, then ConnCost (charge)
	lastTs      time.Time // the newest capture time of its frames, for the timeouts
}

// dirOf maps "the segment matched the key forwards" to a direction.
func (c *conn) dirOf(forward bool) Dir {
	if forward == c.clientIsSrc {
		return ClientToServer
	}
	return ServerToClient
}

func endpointOf(e gopacket.Endpoint, port uint16) Endpoint {
	ip, _ := netip.AddrFromSlice(e.Raw())
	return Endpoint{IP: ip, Port: port}
}

// clientIsSource applies the rule documented in doc.go to the first segment
// of a connection.
func clientIsSource(tcp *layers.TCP) bool {
	if tcp.SYN {
		return !tcp.ACK
	}
	sp, dp := uint16(tcp.SrcPort), uint16(tcp.DstPort)
	switch {
	case sp < 1024 && dp >= 1024:
		return false
	case dp < 1024 && sp >= 1024:
		return true
	case sp != dp:
		return sp > dp
	}
	return true
}

// newConn creates and registers a connection for a segment that matched
// nothing.
func (r *Reassembler) newConn(k connKey, tcp *layers.TCP) *conn {
	c := &conn{key: k, rkey: k.reverse()}
	c.info.Stream = r.stats.Conns
	c.info.wscale = [2]int8{-1, -1}
	r.stats.Conns++
	src := endpointOf(k.net.Src(), k.sport)
	dst := endpointOf(k.net.Dst(), k.dport)
	c.clientIsSrc = clientIsSource(tcp)
	if c.clientIsSrc {
		c.info.Client, c.info.Server = src, dst
	} else {
		c.info.Client, c.info.Server = dst, src
	}
	// The handler is made at the first payload byte (handlerFor): a SYN
	// flood costs the table only.
	for d := range c.half {
		c.half[d].dir = Dir(d)
		c.half[d].fin = -1
	}
	// The fast table has the connection once, under a hash of both
	// directions: a look-up there hashes 8 bytes, not a 60-byte key. When
	// another connection has the hash, both ways go in the full table, so
	// that a segment finds its connection and direction with one look-up
	// whichever way it goes; the key goes in last: it wins when both are
	// the same (a host talking to itself from and to one port).
	if h := k.hash(); r.fast[h] == nil {
		r.fast[h] = c
		c.fast = true
	} else {
		r.conns[c.rkey] = connRef{c: c, forward: false}
		r.conns[k] = connRef{c: c, forward: true}
	}
	r.open++
	r.order = append(r.order, c)
	return c
}

// lookup finds or creates the connection of a segment and its direction.
// Segments often follow others of the same connection (a burst, a reply), so
// the last connection found is tried before the table.
func (r *Reassembler) lookup(netFlow gopacket.Flow, tcp *layers.TCP) (*conn, Dir) {
	k := connKey{net: netFlow, sport: uint16(tcp.SrcPort), dport: uint16(tcp.DstPort)}
	if c := r.last; c != nil {
		if k.is(&c.key) {
			return c, c.dirOf(true)
		}
		if k.is(&c.rkey) {
			return c, c.dirOf(false)
		}
	}
	if c := r.fast[k.hash()]; c != nil {
		// Forwards first: a connection whose key is its own reverse
		// (one host and port talking to itself) is taken forwards.
		if k.is(&c.key) {
			r.last = c
			return c, c.dirOf(true)
		}
		if k.is(&c.rkey) {
			r.last = c
			return c, c.dirOf(false)
		}
	}
	ref, ok := r.conns[k]
	if !ok {
		r.makeRoom()
		ref = connRef{c: r.newConn(k, tcp), forward: true}
		r.charge(ref.c, r.entryCost)
	}
	r.last = ref.c
	return ref.c, ref.c.dirOf(ref.forward)
}

// Find is the connection between the two ends, if the table has it,
// without creating one: what a caller reads of a connection that a frame
// of another protocol names (an ICMP error quoting a segment). ports are
// the source's and destination's of netFlow.
func (r *Reassembler) Find(netFlow gopacket.Flow, sport, dport uint16) *ConnInfo {
	k := connKey{net: netFlow, sport: sport, dport: dport}
	if c := r.fast[k.hash()]; c != nil && (k.is(&c.key) || k.is(&c.rkey)) {
		return &c.info
	}
	if ref, ok := r.conns[k]; ok {
		return &ref.c.info
	}
	return nil
}

// forget removes a connection from the lookup table; r.order drops it at the
// next sweep.
func (r *Reassembler) forget(c *conn) {
	if c.fast {
		if h := c.key.hash(); r.fast[h] == c {
			delete(r.fast, h)
			r.open--
		}
		c.fast = false
	} else if r.conns[c.key].c == c {
		delete(r.conns, c.key)
		r.open--
	}
	if r.conns[c.rkey].c == c {
		delete(r.conns, c.rkey)
	}
	if r.last == c {
		r.last = nil
	}
	if c.charged > 0 {
		r.bufAcct.Credit(c.charged)
		c.charged = 0
	}
	c.removed = true
}
