// Package version says what a binary of mcdissect is, in the shape of
// tshark --version's first lines: its version (the module's, or a
// development build's VCS revision), Go's and gopacket's, the build tags,
// and the protocols it dissects (their registrations).
package version

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/mcdissect/mcdissect/protocols"
)

// Write writes the lines.
func Write(w io.Writer) {
	version, gopacket, tags := "(devel)", "unknown", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, d := range bi.Deps {
			if d.Path == "github.com/gopacket/gopacket" {
				gopacket = d.Version
			}
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "-tags":
				tags = s.Value
			case "vcs.revision":
				if version == "(devel)" && len(s.Value) >= 12 {
					version += " " + s.Value[:12]
				}
			}
		}
	}
	if tags == "" {
		tags = "none (pure Go capture; -tags pcap adds libpcap)"
	}
	fmt.Fprintf(w, "mcdissect %s\n\n", version)
	fmt.Fprintf(w, "Built with %s %s/%s, gopacket %s.\nBuild tags: %s.\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, gopacket, tags)
	fmt.Fprintf(w, "Dissects, as tshark dissects what it knows:\n")
	for _, p := range protocols.All() {
		fmt.Fprintf(w, "  %-10s %s (%s)\n", p.Name, p.Summary, p.Transport)
	}
}
