package filter

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/record"
)

// TestTsharkDifferential runs the same filters through mcdissect and
// tshark on every sample capture, concatenated into one file, on the
// fields both tools have (frame.number, ip, tcp and udp addresses and
// ports). mcdissect filters records (PDUs), tshark frames: the frames
// compared are those that complete a PDU, and on them both tools must
// select the same set.
func TestTsharkDifferential(t *testing.T) {
	tshark, err := exec.LookPath("tshark")
	if err != nil {
		t.Skip("tshark is not installed (apt-get install tshark): no differential test")
	}
	mergecap, err := exec.LookPath("mergecap")
	if err != nil {
		t.Skip("mergecap (from the tshark packages) is not installed: no differential test")
	}
	files, _ := filepath.Glob("../samples/*.pcap")
	if len(files) == 0 {
		t.Skip("no sample captures")
	}
	merged := filepath.Join(t.TempDir(), "all.pcap")
	if out, err := exec.Command(mergecap, append([]string{"-a", "-F", "pcap", "-w", merged}, files...)...).CombinedOutput(); err != nil {
		t.Fatalf("mergecap: %v\n%s", err, out)
	}
	fh, err := os.Open(merged)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	src, err := analyze.OpenFile(fh)
	if err != nil {
		t.Fatal(err)
	}
	var recs []*record.Record
	pduFrames := map[uint64]bool{}
	emit := func(r *record.Record) error {
		// Every PDU, at the frame that decided it: its layers are that
		// frame's, as tshark's are.
		if r.Kind == record.KindPDU {
			recs = append(recs, r.Clone())
			pduFrames[r.Frame] = true
		}
		return nil
	}
	if _, err := analyze.Run(src, analyze.New(analyze.Options{}, analyze.SinkFunc(emit))); err != nil {
		t.Fatal(err)
	}

	exprs := []string{
		"frame.number <= 100",
		"frame.number in {1..50, 300..400}",
		"frame.number & 1",
		`string(frame.number) matches "[13579]$"`,
		"ip.src == 127.0.0.1",
		"ip.addr == 10.0.4.0/24",
		"ip.dst != 10.0.4.1",
		"ip.addr == 192.0.2.10 || ip.addr == 198.51.100.0/24",
		"ip.src in {10.0.4.2 .. 10.0.4.4}",
		"ip.src > 10.0.4.1",
		"ip.src == ip.dst",
		"ip.addr !== 127.0.0.1",
		"ip.addr === 127.0.0.1",
		"!(ip.addr == 127.0.0.0/8)",
		`string(ip.dst) contains ".4."`,
		"tcp.port == 25565",
		"udp.port == 25565",
		"tcp.port in {25580, 25566}",
		"tcp.port not in {25580}",
		"tcp.srcport == 25580",
		"tcp.dstport > 40000",
		"udp.srcport < 30000",
		"tcp.port != 25580",
		"udp.port !== 25565",
		"all tcp.port >= 25566",
		"tcp.dstport & 0xff == 0x1c",
		"tcp and not udp",
		"udp or frame.number < 10",
		"tcp.srcport > tcp.dstport",
		`string(tcp.port) contains "255"`,
		"ip && tcp.port >= 49734 and tcp.port <= 51004",
		"eth.addr == 00:00:00:00:00:00",
		"eth.src != 00:00:00:00:00:00",
		"eth && !(eth.dst == ff:ff:ff:ff:ff:ff)",
		// The layers' header fields: the frame that decides a PDU.
		"tcp.seq == 1",
		"tcp.ack > 100 && tcp.seq < 50",
		"tcp.len >= 100",
		"ip.ttl == 64",
		"ip.id & 0xff == 0x03",
		"ip.proto == 17",
		"frame.len > 200",
		"frame.cap_len < 100",
		"tcp.flags.push == 1 && tcp.flags.fin == 0",
		"tcp.flags == 0x18",
		"tcp.window_size > 65535",
		"tcp.window_size_value < 1000",
		"udp.length in {8..100}",
		"frame.time_delta < 0.001",
		"frame.time_relative > 1",
		"frame.time_epoch > 1795342882.6424",
		"frame.time_epoch == 1795342882.642325",
		// Absolute times: a literal without a zone is local time in both
		// (tshark inherits the test's TZ).
		`frame.time >= "2026-11-22 10:19:40"`,
		`frame.time < "Nov 22, 2026 14:32:49.612210000 UTC"`,
		`frame.time == "2026-11-22T10:21:22.642325Z"`,
		`frame.time in {"2026-11-22T10:21:23Z" .. "2026-11-22T14:33:00+00:00"}`,
		`frame.time >= "2026-11-22T15:00:00+05:30" && frame.time <= "Nov 22, 2026 14:40:00"`,
		`frame.time > 2026-11-22`,
		`frame.time`,
	}
	all, err := tsharkMatches(tshark, merged, exprs)
	if err != nil {
		t.Fatal(err)
	}
	for i, expr := range exprs {
		t.Run(expr, func(t *testing.T) {
			f, err := Compile(expr)
			if err != nil {
				t.Fatal(err)
			}
			var mine []uint64
			for _, r := range recs {
				if f.Match(r) && (len(mine) == 0 || mine[len(mine)-1] != r.Frame) {
					mine = append(mine, r.Frame)
				}
			}
			slices.Sort(mine)
			mine = slices.Compact(mine)
			var theirs []uint64
			for _, n := range all[i] {
				if pduFrames[n] {
					theirs = append(theirs, n)
				}
			}
			if !slices.Equal(mine, theirs) {
				t.Errorf("mcdissect matched %d frames, tshark %d; only mcdissect: %v; only tshark: %v",
					len(mine), len(theirs), diff(mine, theirs), diff(theirs, mine))
			}
			if len(mine) == 0 {
				t.Logf("no frame matches")
			}
		})
	}
}

// tsharkMatches is, for each filter, the frames tshark's filter engine
// selects. One tshark run evaluates them all, through a Lua tap listener
// per filter (tshark's start-up costs seconds); without Lua, one run per
// filter.
func tsharkMatches(tshark, file string, exprs []string) ([][]uint64, error) {
	out := make([][]uint64, len(exprs))
	var lua strings.Builder
	for i, e := range exprs {
		fmt.Fprintf(&lua, "do local l = Listener.new(nil, [==[%s]==]); function l.packet(pinfo) io.write(\"%d \", pinfo.number, \"\\n\") end end\n", e, i)
	}
	lua.WriteString("io.write(\"lua ok\\n\")\n")
	script := filepath.Join(os.TempDir(), fmt.Sprintf("mcdissect-filter-%d.lua", os.Getpid()))
	if err := os.WriteFile(script, []byte(lua.String()), 0o644); err != nil {
		return nil, err
	}
	defer os.Remove(script)
	b, err := exec.Command(tshark, "-q", "-n", "-r", file, "-X", "lua_script:"+script).Output()
	if err == nil && strings.HasPrefix(string(b), "lua ok\n") {
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
			i, n, ok := strings.Cut(l, " ")
			ii, err1 := strconv.Atoi(i)
			nn, err2 := strconv.ParseUint(n, 10, 64)
			if !ok || err1 != nil || err2 != nil || ii < 0 || ii >= len(exprs) {
				return nil, fmt.Errorf("tshark's Lua tap printed %q", l)
			}
			out[ii] = append(out[ii], nn)
		}
		for i := range out {
			slices.Sort(out[i])
			out[i] = slices.Compact(out[i])
		}
		return out, nil
	}
	for i, e := range exprs {
		b, err := exec.Command(tshark, "-n", "-r", file, "-Y", e, "-T", "fields", "-e", "frame.number").Output()
		if err != nil {
			return nil, fmt.Errorf("tshark -Y %q: %v", e, err)
		}
		for _, l := range strings.Fields(string(b)) {
			n, err := strconv.ParseUint(l, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("tshark printed %q", l)
			}
			out[i] = append(out[i], n)
		}
	}
	return out, nil
}

// diff is the first few of a not in b (both sorted).
func diff(a, b []uint64) []uint64 {
	var out []uint64
	for _, v := range a {
		if _, ok := slices.BinarySearch(b, v); !ok && len(out) < 10 {
			out = append(out, v)
		}
	}
	return out
}
