package kernelfilter

import (
	"errors"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/capture"
	_ "github.com/mcdissect/mcdissect/protocols/all"
)

// TestPorts: the registered protocols' own ports and Query's 25575 pass
// whole, with the -d ports, sorted and once each; the heartbeat's port 80
// passes by connection.
func TestPorts(t *testing.T) {
	whole := Ports([]uint16{30000, 25565})
	if want := []uint16{19132, 25565, 25575, 30000}; !slices.Equal(whole, want) {
		t.Errorf("Ports = %v, want %v", whole, want)
	}
	sh := Shared(whole)
	if !slices.Equal(sh.Ports, []uint16{80}) || len(sh.Starts) == 0 || sh.Then == "" {
		t.Errorf("Shared = %+v", sh)
	}
	if sh := Shared(append(whole, 80)); len(sh.Ports) != 0 || len(sh.Starts) != 0 {
		t.Errorf("with 80 passed whole (-d tcp.port==80,...), Shared = %+v", sh)
	}
}

// source is a live source as Note and Follow see it.
type source struct {
	capture.Source
	info  capture.FilterInfo
	added []string
	fail  error
}

func (s *source) FilterInfo() capture.FilterInfo { return s.info }

func (s *source) AddPort(transport string, port uint16) error {
	if s.fail != nil {
		return s.fail
	}
	s.added = append(s.added, transport+"/"+strconv.Itoa(int(port)))
	return nil
}

func TestNote(t *testing.T) {
	o := capture.LiveOptions{Ports: []uint16{19132, 25565, 25575}, Shared: capture.SharedPorts{Ports: []uint16{80}}}
	for _, tc := range []struct {
		name string
		o    capture.LiveOptions
		info capture.FilterInfo
		want string
	}{
		{"by connection", o, capture.FilterInfo{SharedByConnection: true},
			"mcdissect: note: the kernel passes only TCP and UDP ports 19132, 25565, 25575, the Classic heartbeat's connections on TCP port 80, IP fragments and ICMP (a server on another port: -d tcp.port==N,slp, -d udp.port==N,query or --find-servers; -f FILTER to choose; --no-kernel-filter for everything)"},
		{"whole", o, capture.FilterInfo{Why: "no eBPF"},
			"mcdissect: note: the kernel passes only TCP and UDP ports 19132, 25565, 25575, TCP port 80, IP fragments and ICMP (a server on another port: -d tcp.port==N,slp, -d udp.port==N,query or --find-servers; -f FILTER to choose; --no-kernel-filter for everything)\nmcdissect: note: all of port 80 passes: heartbeat connections cannot be told apart in the kernel here (no eBPF)"},
		{"discover", capture.LiveOptions{Ports: o.Ports, Shared: o.Shared, Discover: true}, capture.FilterInfo{SharedByConnection: true, Discover: true},
			"mcdissect: note: the kernel passes only TCP and UDP ports 19132, 25565, 25575, the Classic heartbeat's connections on TCP port 80, the first packets of every other connection (--find-servers), IP fragments and ICMP (a server on another port: -d tcp.port==N,slp, -d udp.port==N,query or --find-servers; -f FILTER to choose; --no-kernel-filter for everything)"},
		{"discover fails", capture.LiveOptions{Ports: o.Ports, Shared: o.Shared, Discover: true}, capture.FilterInfo{Why: "no eBPF"},
			"\nmcdissect: note: all of port 80 passes: heartbeat connections cannot be told apart in the kernel here, and --find-servers finds nothing (no eBPF)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Note(tc.o, &source{info: tc.info})
			if !strings.HasSuffix(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestFollow: a server found on a port not yet passed has it added once,
// and said; ports passed already are not; a failure is said.
func TestFollow(t *testing.T) {
	src := &source{}
	var w strings.Builder
	f := Follow(src, []uint16{25565}, &w)
	srv := netip.MustParseAddrPort("127.0.0.1:30000")
	f("udp", srv, "query")
	f("udp", srv, "query")
	f("tcp", netip.MustParseAddrPort("127.0.0.1:25565"), "slp")
	if !slices.Equal(src.added, []string{"udp/30000"}) {
		t.Errorf("added %v", src.added)
	}
	if want := "mcdissect: note: query found on 127.0.0.1:30000 (udp): the kernel passes UDP port 30000 from now on\n"; w.String() != want {
		t.Errorf("said %q", w.String())
	}
	src.fail = errors.New("no room")
	w.Reset()
	f("tcp", netip.MustParseAddrPort("127.0.0.1:30001"), "slp")
	if want := "mcdissect: note: slp on 127.0.0.1:30001: no room\n"; w.String() != want {
		t.Errorf("said %q", w.String())
	}
	if Follow(struct{ capture.Source }{}, nil, &w) != nil {
		t.Error("a source that cannot add ports follows")
	}
}
