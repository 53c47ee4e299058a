//go:build pcap

package main

import (
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcap"
)

// pcapLive captures through libpcap (build with -tags pcap), which also
// compiles -f capture filters.
type pcapLive struct{ h *pcap.Handle }

func openLiveReader(iface, capFilter string) (liveReader, error) {
	h, err := pcap.OpenLive(iface, 262144, true, 200*time.Millisecond)
	if err != nil {
		return nil, err
	}
	if capFilter != "" {
		if err := h.SetBPFFilter(capFilter); err != nil {
			h.Close()
			return nil, err
		}
	}
	return &pcapLive{h: h}, nil
}

func (p *pcapLive) read() ([]byte, gopacket.CaptureInfo, error) {
	d, ci, err := p.h.ZeroCopyReadPacketData()
	if err == pcap.NextErrorTimeoutExpired {
		return nil, ci, errTimeout
	}
	return d, ci, err
}

func (p *pcapLive) linkType() layers.LinkType { return p.h.LinkType() }
func (p *pcapLive) close()                    { p.h.Close() }
