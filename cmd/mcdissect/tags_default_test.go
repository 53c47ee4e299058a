//go:build !pcap

package main

const withPcap = false
