//go:build !linux && !pcap

package capture

import "errors"

// OpenLive needs libpcap outside Linux.
func OpenLive(iface string, o LiveOptions) (Source, error) {
	return nil, errors.New("live capture without libpcap works on Linux only; build with -tags pcap")
}
