package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/mcdissect/mcdissect/analyze"
)

// parseAutostop reads tshark's -a duration:N.
func parseAutostop(spec string) (time.Duration, error) {
	if spec == "" {
		return 0, nil
	}
	k, v, ok := strings.Cut(spec, ":")
	if !ok || k != "duration" {
		return 0, fmt.Errorf("-a %q: only duration:N (seconds) is supported", spec)
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("-a %q: %q is not a number of seconds", spec, v)
	}
	return time.Duration(n * float64(time.Second)), nil
}

// liveReader is what a live capture backend provides: a read that returns
// errTimeout now and then, so that Ctrl-C and -a are noticed promptly.
type liveReader interface {
	read() ([]byte, gopacket.CaptureInfo, error)
	linkType() layers.LinkType
	close()
}

type liveSource struct {
	r        liveReader
	deadline time.Time
	stop     <-chan os.Signal
}

func (s *liveSource) Next() ([]byte, gopacket.CaptureInfo, layers.LinkType, error) {
	for {
		if s.stop != nil {
			select {
			case <-s.stop:
				return nil, gopacket.CaptureInfo{}, 0, io.EOF
			default:
			}
		}
		if !s.deadline.IsZero() && time.Now().After(s.deadline) {
			return nil, gopacket.CaptureInfo{}, 0, io.EOF
		}
		d, ci, err := s.r.read()
		if err == errTimeout {
			continue
		}
		if err != nil {
			return nil, ci, 0, fmt.Errorf("live capture: %v", err)
		}
		return d, ci, s.r.linkType(), nil
	}
}

var errTimeout = fmt.Errorf("timeout")

func openLive(iface, capFilter, autostop string) (analyze.Source, func(), error) {
	d, err := parseAutostop(autostop)
	if err != nil {
		return nil, nil, err
	}
	r, err := openLiveReader(iface, capFilter)
	if err != nil {
		return nil, nil, fmt.Errorf("-i %s: %v", iface, err)
	}
	s := &liveSource{r: r}
	if d > 0 {
		s.deadline = time.Now().Add(d)
	}
	return s, r.close, nil
}

// interruptible makes a live source end cleanly on Ctrl-C, so that streams
// are flushed and the output is complete.
func interruptible(src analyze.Source, stop <-chan os.Signal) analyze.Source {
	if s, ok := src.(*liveSource); ok {
		s.stop = stop
	}
	return src
}
