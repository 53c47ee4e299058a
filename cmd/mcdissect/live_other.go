//go:build !linux && !pcap

package main

import "errors"

func openLiveReader(iface, capFilter string) (liveReader, error) {
	return nil, errors.New("live capture without libpcap works on Linux only; build with -tags pcap")
}
