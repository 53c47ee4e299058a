package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// Formats are the output formats New takes (-T).
var Formats = []string{"text", "json", "ek", "fields", "pdml", "psml", "html"}

// OnlyProtocols are the names Options.Only takes (-O): the layers below
// Minecraft, the registered protocols' (their registries'), and mc.
func OnlyProtocols() []string {
	out := []string{"frame", "eth", "ip", "ipv6", "tcp", "udp", "icmp", "icmpv6"}
	for _, p := range protocols.All() {
		if !slices.Contains(out, p.Registry.Proto) {
			out = append(out, p.Registry.Proto)
		}
	}
	return append(out, "mc")
}

// ParseOnly reads -O's comma-separated names (OnlyProtocols).
func ParseOnly(list string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(list, ",") {
		if !slices.Contains(OnlyProtocols(), p) {
			return nil, fmt.Errorf("-O %q: %q is not a protocol; choose among %s", list, p, strings.Join(OnlyProtocols(), ", "))
		}
		out = append(out, p)
	}
	return out, nil
}

// ResolveFields resolves -e's names (ResolveField), in order.
func ResolveFields(names []string) ([]record.FieldRef, error) {
	var out []record.FieldRef
	for _, name := range names {
		ref, err := ResolveField(name)
		if err != nil {
			return nil, err
		}
		out = append(out, ref)
	}
	return out, nil
}
