package serve

import (
	"fmt"
	"net"
	"strconv"
)

// ListenAddr is the address to listen on for a as --serve takes it: a
// port alone, or a host left out, is loopback; every interface only when
// asked (0.0.0.0, ::).
func ListenAddr(a string) (string, error) {
	in := a
	if _, err := strconv.ParseUint(a, 10, 16); err == nil {
		a = ":" + a
	}
	host, port, err := net.SplitHostPort(a)
	if err != nil {
		return "", fmt.Errorf("%q: give HOST:PORT or PORT, e.g. 127.0.0.1:8080", in)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}
