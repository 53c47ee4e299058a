package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/gopacket/gopacket/pcapgo"
)

// TestOptionErrorsAsTshark: option values and display filters are
// accepted or refused, with the exit status, as tshark 4.0 does: 1 for an
// option value (-E values are read by their first character, an empty one
// refused; -w - with dissected output), 2 for a display filter that does
// not compile. Where tshark is installed, it is run with the same options
// and must agree.
func TestOptionErrorsAsTshark(t *testing.T) {
	_, err := exec.LookPath("tshark")
	haveTshark := err == nil
	fields := []string{"-T", "fields", "-e", "frame.number", "-c", "1"}
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"-E header=maybe", append([]string{"-E", "header=maybe"}, fields...), exitUsage},
		{"-E header=", append([]string{"-E", "header="}, fields...), exitUsage},
		{"-E header=yes", append([]string{"-E", "header=yes"}, fields...), exitOK},
		{"-E header=no", append([]string{"-E", "header=no"}, fields...), exitOK},
		{"-E quote=dd", append([]string{"-E", "quote=dd"}, fields...), exitOK},
		{"-E quote=x", append([]string{"-E", "quote=x"}, fields...), exitUsage},
		{"-E occurrence=first", append([]string{"-E", "occurrence=first"}, fields...), exitOK},
		{"-E separator=", append([]string{"-E", "separator="}, fields...), exitUsage},
		{"-E aggregator=", append([]string{"-E", "aggregator="}, fields...), exitUsage},
		{"-Y syntax", []string{"-Y", "udp.port =="}, exitFail},
		{"-Y unknown field", []string{"-Y", "udp.prot == 1"}, exitFail},
		{"-w - -P", []string{"-w", "-", "-P"}, exitUsage},
		{"-w - -V", []string{"-w", "-", "-V"}, exitUsage},
		{"-w - -x", []string{"-w", "-", "-x"}, exitUsage},
		{"-w - -T json", []string{"-w", "-", "-T", "json"}, exitUsage},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"-r", querySample}, c.args...)
			out, stderr, code := mcd(t, nil, args...)
			if code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, stderr)
			}
			if c.code != exitOK && out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !haveTshark {
				return
			}
			err := exec.Command("tshark", args...).Run()
			tcode := 0
			if ee, ok := err.(*exec.ExitError); ok {
				tcode = ee.ExitCode()
			}
			if tcode != c.code {
				t.Errorf("tshark exits %d, the test wants %d", tcode, c.code)
			}
		})
	}
}

// TestWriteStdout: -w - writes the capture to standard output, as tshark,
// and nothing else there: statistics go to standard error. The capture
// read back holds every frame.
func TestWriteStdout(t *testing.T) {
	out, stderr, code := mcd(t, nil, "-r", querySample, "-w", "-", "-q", "-z", "conv,udp")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := pcapgo.NewNgReader(bytes.NewReader([]byte(out)), pcapgo.DefaultNgReaderOptions)
	if err != nil {
		t.Fatalf("standard output is not a pcapng capture: %v", err)
	}
	n := 0
	for {
		if _, _, err := r.ReadPacketData(); err != nil {
			break
		}
		n++
	}
	all, _, _ := mcd(t, nil, "-r", querySample, "-T", "fields", "-e", "frame.number")
	if want := len(lines(all)); n != want {
		t.Errorf("%d frames written to standard output, want %d", n, want)
	}
	if !strings.Contains(stderr, "UDP Conversations") {
		t.Errorf("the statistics are not on standard error: %q", stderr)
	}
}
