package analyze

import (
	"fmt"
	"strconv"
	"strings"
)

// DecodeAs is one -d rule: traffic on this transport port is this protocol.
type DecodeAs struct {
	TCP   bool
	Port  uint16
	Proto string
}

// Protocols each transport can carry, for -d.
var (
	udpProtos = []string{"query", "raknet"}
	tcpProtos = []string{"slp", "classic", "heartbeat"}
)

// ParseDecodeAs parses tshark's form "udp.port==25575,query".
func ParseDecodeAs(s string) (DecodeAs, error) {
	sel, proto, ok := strings.Cut(s, ",")
	if !ok {
		return DecodeAs{}, fmt.Errorf("-d %q: want <layer>.port==<port>,<protocol>, e.g. udp.port==25575,query", s)
	}
	field, val, ok := strings.Cut(strings.ReplaceAll(sel, " ", ""), "==")
	if !ok {
		return DecodeAs{}, fmt.Errorf("-d %q: the selector must be <layer>.port==<port>", s)
	}
	var d DecodeAs
	var allowed []string
	switch field {
	case "udp.port":
		allowed = udpProtos
	case "tcp.port":
		d.TCP, allowed = true, tcpProtos
	default:
		return DecodeAs{}, fmt.Errorf("-d %q: unknown selector %q (use udp.port or tcp.port)", s, field)
	}
	p, err := strconv.ParseUint(val, 10, 16)
	if err != nil || p == 0 {
		return DecodeAs{}, fmt.Errorf("-d %q: %q is not a port number", s, val)
	}
	d.Port = uint16(p)
	proto = strings.ToLower(strings.TrimSpace(proto))
	for _, a := range allowed {
		if a == proto {
			d.Proto = proto
			return d, nil
		}
	}
	return DecodeAs{}, fmt.Errorf("-d %q: %q cannot be decoded over %s (choose from %s)", s, proto, field[:3], strings.Join(allowed, ", "))
}

// Default ports: what a server listens on when nobody changed it.
const (
	PortMinecraft = 25565 // Query (UDP), SLP and Classic (TCP)
	PortHTTP      = 80    // the Classic heartbeat
)

// decodeAs finds a -d rule for a port pair; server is the side it matched.
func (a *Analyzer) decodeAs(tcp bool, sport, dport uint16) (proto string, serverIsDst bool, ok bool) {
	for _, d := range a.opts.DecodeAs {
		if d.TCP != tcp {
			continue
		}
		if d.Port == dport {
			return d.Proto, true, true
		}
		if d.Port == sport {
			return d.Proto, false, true
		}
	}
	return "", false, false
}
