//go:build pcap

package capture

import (
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcap"
)

// pcapLive captures through libpcap (build with -tags pcap), which also
// compiles every tcpdump filter. Reads wake up every readTimeout so that
// Stop is noticed promptly.
type pcapLive struct {
	h       *pcap.Handle
	link    layers.LinkType
	stopped atomic.Bool
	mu      sync.Mutex
	closed  bool
	last    Stats
}

const readTimeout = 50 * time.Millisecond

// OpenLive starts a capture on iface through libpcap.
func OpenLive(iface string, o LiveOptions) (Source, error) {
	if ifi, err := lookupInterface(iface); err != nil {
		return nil, err
	} else if ifi != nil {
		if ifi.Flags&net.FlagUp == 0 {
			return nil, errDown(ifi.Name)
		}
		iface = ifi.Name
	}
	in, err := pcap.NewInactiveHandle(iface)
	if err != nil {
		return nil, permission(err)
	}
	defer in.CleanUp()
	snap := o.Snaplen
	if snap <= 0 || snap > MaxSnaplen {
		snap = MaxSnaplen
	}
	in.SetSnapLen(snap)
	in.SetPromisc(o.Promisc)
	in.SetTimeout(readTimeout)
	if o.BufferSize <= 0 {
		o.BufferSize = DefaultBufferSize
	}
	in.SetBufferSize(o.BufferSize)
	h, err := in.Activate()
	if err != nil {
		return nil, permission(err)
	}
	expr := o.Filter
	if expr == "" && !o.NoKernelFilter && len(o.Ports) > 0 {
		// libpcap loads classic BPF only: shared ports pass whole.
		expr = PortsExpr(append(append([]uint16(nil), o.Ports...), o.Shared.Ports...))
	}
	if expr != "" {
		if err := h.SetBPFFilter(expr); err != nil {
			h.Close()
			return nil, fmt.Errorf("filter %q: %v", expr, err)
		}
	}
	return &pcapLive{h: h, link: h.LinkType()}, nil
}

// FilterInfo: libpcap's filters are classic BPF, which keeps no table of
// connections.
func (p *pcapLive) FilterInfo() FilterInfo {
	return FilterInfo{Why: "the libpcap build loads classic BPF filters only"}
}

func permission(err error) error {
	s := err.Error()
	if strings.Contains(s, "ermission") || strings.Contains(s, "not permitted") {
		return fmt.Errorf("%v: %w", err, errPermission)
	}
	return err
}

func (p *pcapLive) Next() (Packet, error) {
	for {
		if p.closed || p.stopped.Load() {
			return Packet{}, io.EOF
		}
		d, ci, err := p.h.ZeroCopyReadPacketData()
		if err == pcap.NextErrorTimeoutExpired {
			continue
		}
		if err != nil {
			return Packet{}, fmt.Errorf("capture: %v", err)
		}
		return Packet{Data: d, Info: ci, LinkType: p.link}, nil
	}
}

func (p *pcapLive) Stop() { p.stopped.Store(true) }

func (p *pcapLive) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		if st, err := p.h.Stats(); err == nil {
			p.last = Stats{Received: uint64(st.PacketsReceived), Dropped: uint64(st.PacketsDropped), IfDropped: uint64(st.PacketsIfDropped)}
		}
	}
	return p.last
}

func (p *pcapLive) Close() error {
	p.Stats()
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		p.h.Close()
	}
	return nil
}
