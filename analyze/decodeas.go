package analyze

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/protocols"
)

// DecodeAs is one -d rule: traffic on this transport port is this
// protocol (a registration's name).
type DecodeAs struct {
	Transport protocols.Transport
	Port      uint16
	Proto     string
}

// ParseDecodeAs parses tshark's form "udp.port==25575,query", against the
// registered protocols.
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
	switch field {
	case "udp.port":
		d.Transport = protocols.UDP
	case "tcp.port":
		d.Transport = protocols.TCP
	default:
		return DecodeAs{}, fmt.Errorf("-d %q: unknown selector %q (use udp.port or tcp.port)", s, field)
	}
	p, err := strconv.ParseUint(val, 10, 16)
	if err != nil || p == 0 {
		return DecodeAs{}, fmt.Errorf("-d %q: %q is not a port number", s, val)
	}
	d.Port = uint16(p)
	proto = strings.ToLower(strings.TrimSpace(proto))
	var allowed []string
	for _, r := range protocols.Of(d.Transport) {
		if r.Name == proto {
			d.Proto = proto
			return d, nil
		}
		allowed = append(allowed, r.Name)
	}
	return DecodeAs{}, fmt.Errorf("-d %q: %q cannot be decoded over %s (choose from %s)", s, proto, field[:3], strings.Join(allowed, ", "))
}

// decodeAs finds a -d rule for a port pair; serverIsDst says which side it
// matched.
func (a *Analyzer) decodeAs(t protocols.Transport, sport, dport uint16) (p *protocols.Protocol, serverIsDst bool, ok bool) {
	for _, d := range a.opts.DecodeAs {
		if d.Transport != t {
			continue
		}
		if d.Port == dport {
			return protocols.ByName(d.Proto), true, true
		}
		if d.Port == sport {
			return protocols.ByName(d.Proto), false, true
		}
	}
	return nil, false, false
}
