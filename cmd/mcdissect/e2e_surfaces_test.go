package main

import (
	"encoding/hex"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/protocols"
)

// TestSurfaces walks every registered protocol through every surface of
// the tool that names protocols, so that adding one is its package and its
// import line (protocols/all), and no list elsewhere: its example (what a
// client sends first) captured on a port of no protocol, read with -d to
// its name, -O its registry, --color, --redact and the census; decode
// --proto; -G protocols; --version.
func TestSurfaces(t *testing.T) {
	all := protocols.All()
	if len(all) < 5 {
		t.Fatalf("%d protocols registered: protocols/all is not imported", len(all))
	}
	glossary, _, _ := mcd(t, nil, "-G", "protocols")
	version, _, _ := mcd(t, nil, "--version")
	for i, p := range all {
		t.Run(p.Name, func(t *testing.T) {
			if len(p.Example) == 0 {
				t.Fatal("no example")
			}
			port := 40100 + i
			client, server := netip.MustParseAddrPort("10.0.9.1:50000"), netip.AddrPortFrom(netip.MustParseAddr("10.0.9.2"), uint16(port))
			path := filepath.Join(t.TempDir(), p.Name+".pcap")
			w, err := capgen.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
			if p.Transport == protocols.UDP {
				w.UDP(t0, client, server, p.Example)
			} else {
				c := w.TCP(client, server, t0)
				c.Handshake()
				c.Send(true, p.Example)
				c.Close()
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			rule := p.Transport.String() + ".port==" + strconv.Itoa(port) + "," + p.Name
			out, errs, code := mcd(t, nil, "-r", path, "-d", rule, "-O", p.Registry.Proto, "--color=always", "--redact", "-z", "mc,servers")
			if code != 0 {
				t.Fatalf("-d %s -O %s: exit %d: %s", rule, p.Registry.Proto, code, errs)
			}
			if !strings.Contains(out, p.Colour+p.Column) {
				t.Errorf("no record shows its column %q in its colour:\n%s", p.Column, out)
			}
			if !strings.Contains(out, p.Registry.Long) {
				t.Errorf("-O %s shows no %q tree:\n%s", p.Registry.Proto, p.Registry.Long, out)
			}
			if strings.Contains(out, "undissected") || strings.Contains(out, "Malformed") {
				t.Errorf("the example is not dissected whole:\n%s", out)
			}
			census := out[strings.Index(out, "Minecraft servers"):]
			if !strings.Contains(census, server.String()+"  ["+p.Column) && !notServer(t, p, path, rule) {
				t.Errorf("the census does not list %s as %s:\n%s", server, p.Column, census)
			}
			dec, errs, code := mcd(t, nil, "decode", "--proto", p.Name, hex.EncodeToString(p.Example))
			if code != 0 || !strings.Contains(dec, p.Column) {
				t.Errorf("decode --proto %s: exit %d: %s%s", p.Name, code, dec, errs)
			}
			if !strings.Contains(glossary, "\t"+p.Registry.Proto+"\n") && !strings.Contains(glossary, "\t"+p.Registry.Proto+"\t") {
				t.Errorf("-G protocols does not list %s:\n%s", p.Registry.Proto, glossary)
			}
			if !strings.Contains(version, p.Name) {
				t.Errorf("--version does not name %s:\n%s", p.Name, version)
			}
		})
	}
}

// notServer reports whether the capture's records hold a field whose role
// says they are not traffic with a Minecraft server (the Classic
// heartbeat, to a list service): no census row is due then.
func notServer(t *testing.T, p *protocols.Protocol, path, rule string) bool {
	for _, f := range p.Registry.Fields() {
		if f.Role != dissect.RoleNotServer {
			continue
		}
		out, _, _ := mcd(t, nil, "-r", path, "-d", rule, "-T", "fields", "-e", "frame.number", "-Y", f.Name)
		if strings.TrimSpace(out) != "" {
			return true
		}
	}
	return false
}
