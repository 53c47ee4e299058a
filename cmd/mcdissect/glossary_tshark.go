package main

import (
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// -G fields and -G protocols in tshark's columns. Minecraft's fields get
// their type from their registration (dissect.Field.FTName); the layers
// below are tshark's own fields, whose types tshark declares and
// mcdissect's records hold in other forms (an address as text, a time
// in seconds as a float): their types are tshark's, listed here.
// TestGlossaryMatchesTshark compares both reports with tshark's.

// layerTypes are tshark's types of the layer fields mcdissect has.
var layerTypes = map[string]string{
	"frame.number": "FT_UINT32", "frame.len": "FT_UINT32", "frame.cap_len": "FT_UINT32",
	"frame.time_epoch": "FT_RELATIVE_TIME", "frame.time_relative": "FT_RELATIVE_TIME", "frame.time_delta": "FT_RELATIVE_TIME",
	"ip.ttl": "FT_UINT8", "ip.id": "FT_UINT16", "ip.proto": "FT_UINT8",
	"ipv6.hlim": "FT_UINT8", "ipv6.nxt": "FT_UINT8",
	"tcp.srcport": "FT_UINT16", "tcp.dstport": "FT_UINT16", "tcp.port": "FT_UINT16", "tcp.stream": "FT_UINT32",
	"tcp.seq": "FT_UINT32", "tcp.ack": "FT_UINT32", "tcp.len": "FT_UINT32", "tcp.flags": "FT_UINT16",
	"tcp.window_size": "FT_UINT32", "tcp.window_size_value": "FT_UINT16",
	"udp.srcport": "FT_UINT16", "udp.dstport": "FT_UINT16", "udp.port": "FT_UINT16", "udp.length": "FT_UINT16",
	"eth.src": "FT_ETHER", "eth.dst": "FT_ETHER", "eth.addr": "FT_ETHER",
}

// ftName is a field's type for -G fields.
func ftName(f *dissect.Field) string {
	if t, ok := layerTypes[f.Name]; ok {
		return t
	}
	if ref, err := record.ResolveField(f.Name); err == nil {
		switch ref.AddrFamily() {
		case 4:
			return "FT_IPv4"
		case 6:
			return "FT_IPv6"
		}
	}
	return f.FTName()
}

// baseName is a field's base for -G fields: none for the types tshark
// gives none.
func baseName(f *dissect.Field) string {
	switch ftName(f) {
	case "FT_IPv4", "FT_IPv6", "FT_ETHER", "FT_RELATIVE_TIME":
		return ""
	}
	return f.BaseName()
}

// protocolNames are tshark's long and short names of the layers below
// Minecraft, where mcdissect's tree says more ("Ethernet II").
var protocolNames = map[string][2]string{
	"frame": {"Frame", "Frame"},
	"eth":   {"Ethernet", "Ethernet"},
	"ip":    {"Internet Protocol Version 4", "IPv4"},
	"ipv6":  {"Internet Protocol Version 6", "IPv6"},
	"tcp":   {"Transmission Control Protocol", "TCP"},
	"udp":   {"User Datagram Protocol", "UDP"},
	"mc":    {"Minecraft", "Minecraft"},
}

// protocolName is a registry's long and short name: tshark's for the layers
// below Minecraft, else its own and its summary's protocol column.
func protocolName(r *dissect.Registry) (long, short string) {
	if n, ok := protocolNames[r.Proto]; ok {
		return n[0], n[1]
	}
	return r.Long, protocols.Column(r.Proto)
}
