package capture

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 123456789, time.UTC)

// pcapBytes writes a classic pcap by hand, in either byte order and
// timestamp resolution (gopacket writes one kind only).
func pcapBytes(order binary.ByteOrder, nano bool, link uint32, frames [][]byte) []byte {
	var b bytes.Buffer
	magic := uint32(0xa1b2c3d4)
	if nano {
		magic = 0xa1b23c4d
	}
	hdr := make([]byte, 24)
	order.PutUint32(hdr[0:], magic)
	order.PutUint16(hdr[4:], 2)
	order.PutUint16(hdr[6:], 4)
	order.PutUint32(hdr[16:], 65535)
	order.PutUint32(hdr[20:], link)
	b.Write(hdr)
	for i, f := range frames {
		ts := t0.Add(time.Duration(i) * time.Millisecond)
		rec := make([]byte, 16)
		order.PutUint32(rec[0:], uint32(ts.Unix()))
		frac := uint32(ts.Nanosecond() / 1000)
		if nano {
			frac = uint32(ts.Nanosecond())
		}
		order.PutUint32(rec[4:], frac)
		order.PutUint32(rec[8:], uint32(len(f)))
		order.PutUint32(rec[12:], uint32(len(f)+3))
		b.Write(rec)
		b.Write(f)
	}
	return b.Bytes()
}

func readPackets(t *testing.T, src Source) ([]Packet, error) {
	t.Helper()
	var ps []Packet
	for {
		p, err := src.Next()
		if err == io.EOF {
			return ps, nil
		}
		if err != nil {
			return ps, err
		}
		p.Data = append([]byte(nil), p.Data...)
		ps = append(ps, p)
	}
}

// TestFormats: pcap in both byte orders and resolutions, pcapng, and each
// gzip-compressed, give the same packets with their timestamps.
func TestFormats(t *testing.T) {
	frames := [][]byte{[]byte("first packet"), []byte("second")}
	var ng bytes.Buffer
	w, err := pcapgo.NewNgWriterInterface(&ng, pcapgo.NgInterface{Name: "eth0", LinkType: layers.LinkTypeEthernet, TimestampResolution: 9}, pcapgo.NgWriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range frames {
		w.WritePacket(gopacket.CaptureInfo{Timestamp: t0.Add(time.Duration(i) * time.Millisecond), CaptureLength: len(f), Length: len(f) + 3}, f)
	}
	w.Flush()
	inputs := map[string][]byte{
		"pcap/le/us": pcapBytes(binary.LittleEndian, false, 1, frames),
		"pcap/be/us": pcapBytes(binary.BigEndian, false, 1, frames),
		"pcap/le/ns": pcapBytes(binary.LittleEndian, true, 1, frames),
		"pcap/be/ns": pcapBytes(binary.BigEndian, true, 1, frames),
		"pcapng":     ng.Bytes(),
	}
	for name, in := range inputs {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(in)
		zw.Close()
		for _, gz := range []bool{false, true} {
			data := in
			if gz {
				data, name = z.Bytes(), name+".gz"
			}
			t.Run(name, func(t *testing.T) {
				src, err := OpenReader(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				ps, err := readPackets(t, src)
				if err != nil || len(ps) != 2 {
					t.Fatalf("%d packets, %v", len(ps), err)
				}
				res := time.Microsecond
				if strings.Contains(name, "ns") || strings.HasPrefix(name, "pcapng") {
					res = 1
				}
				for i, p := range ps {
					if string(p.Data) != string(frames[i]) || p.LinkType != layers.LinkTypeEthernet || p.Info.Length != len(frames[i])+3 || p.Info.CaptureLength != len(frames[i]) {
						t.Errorf("packet %d: %q %v %+v", i, p.Data, p.LinkType, p.Info)
					}
					if want := t0.Add(time.Duration(i) * time.Millisecond).Truncate(res); !p.Info.Timestamp.Equal(want) {
						t.Errorf("packet %d at %v, want %v", i, p.Info.Timestamp, want)
					}
				}
				if st := src.Stats(); st.Received != 2 {
					t.Errorf("stats %+v", st)
				}
			})
		}
	}
}

// TestCut: a file that ends inside a record gives its whole packets, then
// an error that is ErrCut and io.ErrUnexpectedEOF; garbage in a record is
// ErrCut only.
func TestCut(t *testing.T) {
	full := pcapBytes(binary.LittleEndian, false, 1, [][]byte{[]byte("first packet"), []byte("second")})
	for _, cutAt := range []int{1, 3, 6, 10, 15, 16 + 5} {
		src, err := OpenReader(bytes.NewReader(full[:len(full)-cutAt]))
		if err != nil {
			t.Fatal(err)
		}
		ps, err := readPackets(t, src)
		if len(ps) != 1 || !errors.Is(err, ErrCut) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("cut %d: %d packets, %v", cutAt, len(ps), err)
		}
		if _, err := src.Next(); err != io.EOF {
			t.Errorf("cut %d: after the error, %v", cutAt, err)
		}
	}
	bad := append([]byte(nil), full...)
	binary.LittleEndian.PutUint32(bad[24+16+12+8:], 1<<30) // the second record claims 1 GiB
	ps, err := readPackets(t, mustOpen(t, bad))
	if len(ps) != 1 || !errors.Is(err, ErrCut) || errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("damaged: %d packets, %v", len(ps), err)
	}
}

func mustOpen(t *testing.T, b []byte) Source {
	t.Helper()
	src, err := OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestStopFile: after Stop, Next says io.EOF.
func TestStopFile(t *testing.T) {
	src := mustOpen(t, pcapBytes(binary.LittleEndian, false, 1, [][]byte{[]byte("a"), []byte("b")}))
	if _, err := src.Next(); err != nil {
		t.Fatal(err)
	}
	src.Stop()
	if _, err := src.Next(); err != io.EOF {
		t.Fatalf("after Stop: %v", err)
	}
}

// TestOpenFile: a file by path (closed by Close), a missing file (an
// *os.PathError) and input that is no capture.
func TestOpenFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.pcap")
	os.WriteFile(p, pcapBytes(binary.LittleEndian, false, 1, [][]byte{[]byte("a")}), 0o644)
	src, err := OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if ps, err := readPackets(t, src); len(ps) != 1 || err != nil {
		t.Errorf("%d packets, %v", len(ps), err)
	}
	if err := src.Close(); err != nil {
		t.Error(err)
	}
	var pe *os.PathError
	if _, err := OpenFile(p + ".missing"); !errors.As(err, &pe) {
		t.Errorf("missing file: %v", err)
	}
	for name, in := range map[string][]byte{"empty": nil, "html": []byte("<!DOCTYPE html>"), "short": {0xd4, 0xc3}} {
		if _, err := OpenReader(bytes.NewReader(in)); !errors.Is(err, ErrNotCapture) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestSamples: every sample capture reads to its end without an error.
func TestSamples(t *testing.T) {
	files, _ := filepath.Glob("../samples/*.pcap")
	for _, f := range files {
		src, err := OpenFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := readPackets(t, src)
		if err != nil || len(ps) == 0 {
			t.Errorf("%s: %d packets, %v", f, len(ps), err)
		}
		src.Close()
	}
}

// TestHostilePcapng: an interface claiming a 4 GiB snap length and a packet
// block claiming more captured bytes than it holds end in a clear error,
// with nothing allocated to their measure.
func TestHostilePcapng(t *testing.T) {
	le := binary.LittleEndian
	block := func(typ uint32, body []byte) []byte {
		b := make([]byte, 8, 12+len(body))
		le.PutUint32(b[0:], typ)
		le.PutUint32(b[4:], uint32(12+len(body)))
		b = append(b, body...)
		return le.AppendUint32(b, uint32(12+len(body)))
	}
	shb := block(ngSHB, []byte{0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	idb := block(ngIDB, []byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})
	epb := make([]byte, 20+8)
	le.PutUint32(epb[12:], 1<<30) // claims 1 GiB captured
	le.PutUint32(epb[16:], 1<<30)
	capture := append(append(append([]byte(nil), shb...), idb...), block(ngEPB, epb)...)
	recs, warn, err := readBytes(t, capture)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 0 || warn == nil || !strings.Contains(warn.Error(), "claims") {
		t.Errorf("records %d, warning %v", len(recs), warn)
	}
	// A block claiming 2 GiB is refused before it is read.
	big := make([]byte, 8)
	le.PutUint32(big[0:], ngEPB)
	le.PutUint32(big[4:], 1<<31)
	_, warn, _ = readBytes(t, append(append(append([]byte(nil), shb...), idb...), big...))
	if warn == nil || !strings.Contains(warn.Error(), "limit") {
		t.Errorf("warning %v, want the block limit", warn)
	}
}

// readBytes reads a capture held in memory: its packets, and the error
// that ended it as a warning (nil at a clean end).
func readBytes(t *testing.T, b []byte) ([]Packet, error, error) {
	src, err := OpenReader(bytes.NewReader(b))
	if err != nil {
		return nil, nil, err
	}
	ps, err := readPackets(t, src)
	return ps, err, nil
}
