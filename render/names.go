package render

import (
	"slices"

	"github.com/mcdissect/mcdissect/protocols"
)

// Formats are the output formats New takes (-T).
var Formats = []string{"text", "json", "ek", "fields", "pdml", "psml", "html"}

// OnlyProtocols are the names Options.Only takes (-O): the layers below
// Minecraft, the registered protocols' (their registries'), and mc.
func OnlyProtocols() []string {
	out := []string{"frame", "ip", "ipv6", "tcp", "udp"}
	for _, p := range protocols.All() {
		if !slices.Contains(out, p.Registry.Proto) {
			out = append(out, p.Registry.Proto)
		}
	}
	return append(out, "mc")
}
