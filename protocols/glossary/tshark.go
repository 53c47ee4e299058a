package glossary

import (
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
)

// -G fields and -G protocols in tshark's columns. A field's type is its
// registration's (dissect.Field.FTName, the address fields by their
// family); the few layer fields whose tshark type the tree holds in
// another form (a MAC address as bytes, a time in seconds as a float) are
// listed here. TestGlossaryMatchesTshark compares both reports with
// tshark's.

// layerTypes are tshark's types of the layer fields the tree holds in
// another form.
var layerTypes = map[string]string{
	"frame.time_epoch": "FT_RELATIVE_TIME", "frame.time_relative": "FT_RELATIVE_TIME", "frame.time_delta": "FT_RELATIVE_TIME",
	"eth.src": "FT_ETHER", "eth.dst": "FT_ETHER", "eth.addr": "FT_ETHER",
}

// ftName is a field's type for -G fields.
func ftName(f *dissect.Field) string {
	if t, ok := layerTypes[f.Name]; ok {
		return t
	}
	switch f.Addr {
	case 4:
		return "FT_IPv4"
	case 6:
		return "FT_IPv6"
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
