//go:build pcap

package main

const withPcap = true
