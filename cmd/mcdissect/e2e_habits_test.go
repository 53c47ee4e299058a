package main

import (
	"encoding/hex"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/protocols/glossary"
	"github.com/mcdissect/mcdissect/protocols/prefs"
	"github.com/mcdissect/mcdissect/render"
)

// The tshark habits of issue 29, each compared with tshark's own output
// where tshark can show it (the frame, IP, TCP and UDP layers and the
// columns); the tests that run tshark skip without it.

func needTshark(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Skip("tshark is not installed (apt-get install tshark): nothing to compare with")
	}
}

func sample(name string) string { return filepath.Join("../../samples", name+".pcap") }

// TestNameResolution: -n is accepted and changes nothing; -N takes
// tshark's letters and says that nothing resolves; another letter is
// refused as tshark refuses it.
func TestNameResolution(t *testing.T) {
	plain, _, _ := mcd(t, nil, "-r", querySample)
	out, stderr, code := mcd(t, nil, "-r", querySample, "-n")
	if code != 0 || out != plain || stderr != "" {
		t.Errorf("-n: exit %d, stderr %q, output the same: %v", code, stderr, out == plain)
	}
	out, stderr, code = mcd(t, nil, "-r", querySample, "-N", "mnt")
	if code != 0 || out != plain || !strings.Contains(stderr, "resolves no names") {
		t.Errorf("-N mnt: exit %d, stderr %q, output the same: %v", code, stderr, out == plain)
	}
	_, stderr, code = mcd(t, nil, "-r", querySample, "-N", "q")
	if code != exitUsage || !strings.Contains(stderr, "-N specifies unknown resolving option 'q'") {
		t.Errorf("-N q: exit %d, stderr %q", code, stderr)
	}
}

// TestPreferences: -o takes the preferences that mean something here and
// refuses the others in tshark's words.
func TestPreferences(t *testing.T) {
	plain, _, _ := mcd(t, nil, "-r", querySample)
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
		same   []string // the output is that of these flags instead
	}{
		{[]string{"-o", "tcp.desegment_tcp_streams:TRUE", "-o", "tcp.relative_sequence_numbers:true", "-o", "udp.check_checksum:FALSE"}, 0, "", nil},
		{[]string{"-o", "tcp.desegment_tcp_streams:FALSE"}, exitUsage, "mcdissect always reassembles TCP streams", nil},
		{[]string{"-o", "tcp.check_checksum:TRUE"}, exitUsage, "checks no checksum", nil},
		{[]string{"-o", "tcp.relative_sequence_numbers:maybe"}, exitUsage, `"maybe" is not TRUE or FALSE`, nil},
		{[]string{"-o", "foo.bar:1"}, exitUsage, `-o flag "foo.bar:1" specifies unknown preference`, nil},
		{[]string{"-o", "foo"}, exitUsage, `invalid -o flag "foo"`, nil},
		{[]string{"-o", "mc.heuristics:FALSE"}, 0, "", []string{"--no-heuristics"}},
		{[]string{"-o", "classic.salt:wo6kVAHjxoJcInKx"}, 0, "", []string{"--classic-salt", "wo6kVAHjxoJcInKx"}},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			pcap := querySample
			if c.same != nil {
				pcap = sample("handmade-classic-secrets")
			}
			out, stderr, code := mcd(t, nil, append([]string{"-r", pcap}, c.args...)...)
			if code != c.code || c.stderr == "" && stderr != "" || !strings.Contains(stderr, c.stderr) {
				t.Fatalf("exit %d, stderr %q; want exit %d saying %q", code, stderr, c.code, c.stderr)
			}
			switch {
			case c.code != 0:
			case c.same != nil:
				want, _, _ := mcd(t, nil, append([]string{"-r", pcap}, c.same...)...)
				if out != want {
					t.Errorf("not the output of %v", c.same)
				}
			case out != plain:
				t.Errorf("the output changed")
			}
		})
	}
	out, _, code := mcd(t, nil, "-o", "help")
	for _, name := range prefs.Names() {
		if code != 0 || !strings.Contains(out, name+":") {
			t.Errorf("-o help (exit %d) does not list %s:\n%s", code, name, out)
		}
	}
}

// TestColumnsMatchTshark: -e _ws.col.* prints the packet list's columns:
// No., Time, Source, Destination and Length are tshark's for the frame
// that completed the record; Protocol and Info are the summary's; the
// layers of frame.protocols are tshark's, then the Minecraft protocol.
func TestColumnsMatchTshark(t *testing.T) {
	needTshark(t)
	cols := []string{"_ws.col.No.", "_ws.col.Time", "_ws.col.Source", "_ws.col.Destination", "_ws.col.Length", "frame.protocols"}
	var args []string
	for _, c := range cols {
		args = append(args, "-e", c)
	}
	for _, s := range []string{"query-full", "slp-status-gamedig", "classic-session", "login-online"} {
		t.Run(s, func(t *testing.T) {
			want := byFrame(tshark(t, append([]string{"-r", sample(s), "-T", "fields"}, args...)...))
			out, stderr, code := mcd(t, nil, append([]string{"-r", sample(s), "-T", "fields", "-e", "_ws.col.Protocol", "-e", "_ws.col.Info"}, args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			summary, _, _ := mcd(t, nil, "-r", sample(s))
			sum := lines(summary)
			got := lines(out)
			if len(got) != len(sum) || len(got) == 0 {
				t.Fatalf("%d lines, the summary %d", len(got), len(sum))
			}
			for i, l := range got {
				f := strings.Split(l, "\t")
				w := want[f[2]]
				if len(w) != len(cols) {
					t.Fatalf("frame %s not in tshark's output", f[2])
				}
				for k := 0; k < 5; k++ {
					if f[2+k] != w[k] {
						t.Errorf("frame %s %s: %q, tshark %q", f[2], cols[k], f[2+k], w[k])
					}
				}
				// frame.protocols: tshark's layers up to the transport.
				mine, theirs := f[7], w[5]
				tr := "udp"
				if strings.Contains(mine, ":tcp") {
					tr = "tcp"
				}
				if cut := strings.Index(theirs, ":"+tr) + len(tr) + 1; !strings.HasPrefix(mine, theirs[:cut]) {
					t.Errorf("frame %s frame.protocols %q, tshark %q", f[2], mine, theirs)
				}
				// Protocol and Info: the summary line's.
				if !strings.Contains(sum[i], " "+f[0]+" "+f[1]) {
					t.Errorf("Protocol %q and Info %q are not the summary's %q", f[0], f[1], sum[i])
				}
			}
		})
	}
	_, stderr, code := mcd(t, nil, "-r", querySample, "-T", "fields", "-e", "_ws.col.Foo")
	if code != exitUsage || !strings.Contains(stderr, "not a column") {
		t.Errorf("-e _ws.col.Foo: exit %d, %q", code, stderr)
	}
}

// TestOccurrence: -E occurrence=N keeps the Nth occurrence, -N counted
// from the last; f, l and a as before.
func TestOccurrence(t *testing.T) {
	get := func(occ string) string {
		out, stderr, code := mcd(t, nil, "-r", querySample, "-c", "1", "-T", "fields", "-e", "udp.port", "-E", "occurrence="+occ)
		if code != 0 {
			t.Fatalf("occurrence=%s: exit %d: %s", occ, code, stderr)
		}
		return strings.TrimSpace(out)
	}
	all := strings.Split(get("a"), ",")
	if len(all) != 2 {
		t.Fatalf("udp.port: %q", all)
	}
	for occ, want := range map[string]string{"f": all[0], "l": all[1], "1": all[0], "2": all[1], "-1": all[1], "-2": all[0], "3": "", "-3": ""} {
		if got := get(occ); got != want {
			t.Errorf("occurrence=%s: %q, want %q", occ, got, want)
		}
	}
	if _, stderr, code := mcd(t, nil, "-r", querySample, "-T", "fields", "-e", "udp.port", "-E", "occurrence=0"); code != exitUsage {
		t.Errorf("occurrence=0: exit %d, %q", code, stderr)
	}
}

// TestAutostopPackets: -a packets:N with -r stops after N frames, as
// tshark's: the records shown are those the first N frames complete.
func TestAutostopPackets(t *testing.T) {
	out, stderr, code := mcd(t, nil, "-r", querySample, "-a", "packets:7", "-T", "fields", "-e", "frame.number")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	all, _, _ := mcd(t, nil, "-r", querySample, "-T", "fields", "-e", "frame.number")
	var want []string
	for _, f := range lines(all) {
		if n, _ := strconv.Atoi(f); n <= 7 {
			want = append(want, f)
		}
	}
	if got := lines(out); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("-a packets:7 shows frames %q, want %q", got, want)
	}
	for _, c := range []struct{ a, say string }{
		{"duration:1", "-a duration: is for live captures (-i)"},
		{"foo:1", "choose duration:S, filesize:KB, packets:N or files:N"},
		{"packets:x", "is not a positive whole number"},
		{"filesize:10", "it needs -w"},
	} {
		if _, stderr, code := mcd(t, nil, "-r", querySample, "-a", c.a); code != exitUsage || !strings.Contains(stderr, c.say) {
			t.Errorf("-a %s: exit %d, %q; want it to say %q", c.a, code, stderr, c.say)
		}
	}
}

// TestBareColor: --color alone is always (as tshark's bare --color), and
// takes no value: --color -c 1 prints one record, coloured.
func TestBareColor(t *testing.T) {
	out, stderr, code := mcd(t, nil, "-r", querySample, "--color", "-c", "1")
	if code != 0 || len(lines(out)) != 1 || !strings.Contains(out, "\x1b[") {
		t.Errorf("--color -c 1: exit %d, stderr %q, output %q", code, stderr, out)
	}
	out, _, code = mcd(t, nil, "-r", querySample, "--color=never", "-c", "1")
	if code != 0 || strings.Contains(out, "\x1b[") {
		t.Errorf("--color=never: exit %d, output %q", code, out)
	}
}

// TestFieldsHexMatchTshark: -T fields prints hex-based fields as tshark
// does, 0x and the field's width in digits.
func TestFieldsHexMatchTshark(t *testing.T) {
	out, _, _ := mcd(t, nil, "-r", querySample, "-c", "1", "-T", "fields", "-e", "query.session_id", "-e", "query.magic", "-e", "ip.id")
	if f := strings.Split(strings.TrimSpace(out), "\t"); len(f) != 3 || !regexp.MustCompile(`^0x[0-9a-f]{8}$`).MatchString(f[0]) || f[1] != "0xfefd" || !regexp.MustCompile(`^0x[0-9a-f]{4}$`).MatchString(f[2]) {
		t.Errorf("session ID, magic, ip.id: %q", out)
	}
	needTshark(t)
	for _, s := range []string{"slp-status-gamedig", "query-full", "classic-session"} {
		args := []string{"-r", sample(s), "-T", "fields", "-e", "frame.number", "-e", "ip.id", "-e", "tcp.flags"}
		want := byFrame(tshark(t, args...))
		out, _, _ := mcd(t, nil, args...)
		for _, l := range lines(out) {
			f := strings.Split(l, "\t")
			if w := want[f[0]]; !slices.Equal(f, w) {
				t.Errorf("%s frame %s: %q, tshark %q", s, f[0], f, w)
			}
		}
	}
}

// TestHexShowsEveryByte: -x shows every byte of a long field (a favicon,
// a status JSON): the bytes of the dump are the PDU's; for a Query
// datagram they are the end of tshark's dump of its frame.
func TestHexShowsEveryByte(t *testing.T) {
	hexLine := regexp.MustCompile(`^([0-9a-f]{4})  ((?:[0-9a-f]{2} |   ){16})`)
	dump := func(out string) [][]byte {
		var recs [][]byte
		for _, l := range lines(out) {
			m := hexLine.FindStringSubmatch(l)
			switch {
			case m == nil && l != "":
				recs = append(recs, nil) // a summary line starts a record
			case m != nil && len(recs) > 0:
				b, _ := hex.DecodeString(strings.ReplaceAll(m[2], " ", ""))
				recs[len(recs)-1] = append(recs[len(recs)-1], b...)
			}
		}
		return recs
	}
	out, _, _ := mcd(t, nil, "-r", sample("slp-status-gamedig"), "-x")
	if strings.Contains(out, "more bytes") {
		t.Error("-x still shortens a field")
	}
	json, _, _ := mcd(t, nil, "-r", sample("slp-status-gamedig"), "-T", "fields", "-e", "slp.status.json")
	var longest int
	for _, r := range dump(out) {
		longest = max(longest, len(r))
	}
	if jl := len(strings.TrimSpace(strings.ReplaceAll(json, "\n", ""))); longest < jl {
		t.Errorf("the longest record's dump holds %d bytes, less than its status JSON's %d", longest, jl)
	}
	needTshark(t)
	out, _, _ = mcd(t, nil, "-r", querySample, "-x")
	frames, _, _ := mcd(t, nil, "-r", querySample, "-T", "fields", "-e", "frame.number")
	nums := lines(frames)
	for i, r := range dump(out) {
		theirs := tshark(t, "-r", querySample, "-x", "-Y", "frame.number == "+nums[i])
		var fb []byte
		for _, l := range lines(theirs) {
			if len(l) > 6 && l[4] == ' ' && l[5] == ' ' {
				b, _ := hex.DecodeString(strings.ReplaceAll(strings.TrimRight(l[6:min(len(l), 6+48)], " "), " ", ""))
				fb = append(fb, b...)
			}
		}
		if len(r) == 0 || !strings.HasSuffix(string(fb), string(r)) {
			t.Errorf("frame %s: -x shows %d bytes that are not the end of tshark's %d", nums[i], len(r), len(fb))
		}
		if i > 3 {
			break // tshark starts in seconds: a few frames are enough
		}
	}
}

// xmlNode is any XML element, for comparing PDML and PSML.
type xmlNode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Text    string     `xml:",chardata"`
	Kids    []xmlNode  `xml:",any"`
}

func (n *xmlNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// fields lists every field element under n by name (first occurrence).
func (n *xmlNode) fields(into map[string]*xmlNode) {
	for i := range n.Kids {
		k := &n.Kids[i]
		if k.XMLName.Local == "field" {
			if _, ok := into[k.attr("name")]; !ok {
				into[k.attr("name")] = k
			}
		}
		k.fields(into)
	}
}

func parseXML(t *testing.T, s string) xmlNode {
	t.Helper()
	var n xmlNode
	if err := xml.Unmarshal([]byte(s), &n); err != nil {
		t.Fatalf("not XML: %v\n%.400s", err, s)
	}
	return n
}

// TestPDMLPSMLMatchTshark: -T pdml and -T psml have tshark's shape: the
// same elements and attributes, and for the frame that completed each
// record, geninfo, the frame's fields and those of IP, TCP and UDP show
// what tshark shows; PSML's sections are tshark's but for Protocol and
// Info, the summary's.
func TestPDMLPSMLMatchTshark(t *testing.T) {
	needTshark(t)
	for _, s := range []string{"query-full", "slp-status-gamedig"} {
		t.Run(s, func(t *testing.T) {
			out, stderr, code := mcd(t, nil, "-r", sample(s), "-T", "pdml")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			mine := parseXML(t, out)
			theirs := parseXML(t, tshark(t, "-r", sample(s), "-T", "pdml"))
			if mine.XMLName.Local != "pdml" || mine.attr("version") != theirs.attr("version") {
				t.Fatalf("root %s version %q, tshark's %s %q", mine.XMLName.Local, mine.attr("version"), theirs.XMLName.Local, theirs.attr("version"))
			}
			byNum := map[string]*xmlNode{}
			for i := range theirs.Kids {
				p := &theirs.Kids[i]
				f := map[string]*xmlNode{}
				p.fields(f)
				byNum[f["num"].attr("show")] = p
			}
			compared := 0
			for i := range mine.Kids {
				p := &mine.Kids[i]
				if p.XMLName.Local != "packet" || len(p.Kids) < 3 || p.Kids[0].attr("name") != "geninfo" || p.Kids[1].attr("name") != "frame" {
					t.Fatalf("packet %d is not geninfo, frame, …: %+v", i, p.Kids)
				}
				mf := map[string]*xmlNode{}
				p.fields(mf)
				tp := byNum[mf["num"].attr("show")]
				if tp == nil {
					t.Fatalf("frame %s not in tshark's PDML", mf["num"].attr("show"))
				}
				tf := map[string]*xmlNode{}
				tp.fields(tf)
				for name, f := range mf {
					w, ok := tf[name]
					if !ok || strings.Contains(name, ".") && !strings.HasPrefix(name, "frame.") && !strings.HasPrefix(name, "ip.") &&
						!strings.HasPrefix(name, "tcp.") && !strings.HasPrefix(name, "udp.") || name == "frame.protocols" {
						continue
					}
					for _, a := range []string{"show", "value"} {
						if name != "num" && name != "len" && name != "caplen" && name != "timestamp" && a == "value" {
							continue // the layers' fields have no bytes here
						}
						if f.attr(a) != w.attr(a) {
							t.Errorf("frame %s %s %s=%q, tshark %q", mf["num"].attr("show"), name, a, f.attr(a), w.attr(a))
						}
					}
					for _, a := range f.Attrs {
						if w.attr(a.Name.Local) == "" && !slices.Contains([]string{"show", "value"}, a.Name.Local) {
							t.Errorf("%s: attribute %s, which tshark's has not", name, a.Name.Local)
						}
					}
					compared++
				}
			}
			if compared < 10 {
				t.Errorf("only %d fields compared", compared)
			}
			t.Logf("%d fields compared", compared)

			out, _, _ = mcd(t, nil, "-r", sample(s), "-T", "psml")
			mp := parseXML(t, out)
			tps := parseXML(t, tshark(t, "-r", sample(s), "-T", "psml"))
			if len(mp.Kids) < 2 || mp.Kids[0].XMLName.Local != "structure" || len(mp.Kids[0].Kids) != len(tps.Kids[0].Kids) {
				t.Fatalf("PSML structure %+v, tshark's %+v", mp.Kids[0], tps.Kids[0])
			}
			for k, sec := range mp.Kids[0].Kids {
				if sec.Text != tps.Kids[0].Kids[k].Text {
					t.Errorf("section %d is %q, tshark's %q", k, sec.Text, tps.Kids[0].Kids[k].Text)
				}
			}
			tByNum := map[string]xmlNode{}
			for _, p := range tps.Kids[1:] {
				tByNum[p.Kids[0].Text] = p
			}
			summary, _, _ := mcd(t, nil, "-r", sample(s))
			for i, p := range mp.Kids[1:] {
				w := tByNum[p.Kids[0].Text]
				for _, k := range []int{0, 1, 2, 3, 5} { // No., Time, Source, Destination, Length
					if p.Kids[k].Text != w.Kids[k].Text {
						t.Errorf("packet %s section %d: %q, tshark %q", p.Kids[0].Text, k, p.Kids[k].Text, w.Kids[k].Text)
					}
				}
				if !strings.Contains(lines(summary)[i], " "+p.Kids[4].Text+" "+p.Kids[6].Text) {
					t.Errorf("Protocol and Info %q %q are not the summary's %q", p.Kids[4].Text, p.Kids[6].Text, lines(summary)[i])
				}
			}
		})
	}
}

// TestGlossaryMatchesTshark: for every field and protocol of the layers
// below Minecraft (frame, eth, ip, ipv6, tcp, udp), -G fields gives
// tshark's type and -G protocols tshark's names. (RakNet is a dissector
// of both tools, each with its own fields.)
func TestGlossaryMatchesTshark(t *testing.T) {
	needTshark(t)
	theirs := map[string]string{}
	for _, l := range lines(tshark(t, "-G", "fields")) {
		if c := strings.Split(l, "\t"); len(c) >= 4 && c[0] == "F" {
			theirs[c[2]] = c[3]
		}
	}
	out, _, _ := mcd(t, nil, "-G", "fields")
	n := 0
	for _, l := range lines(out) {
		c := strings.Split(l, "\t")
		if c[0] != "F" {
			continue
		}
		if w, ok := theirs[c[2]]; ok && layerProto(c[4]) {
			n++
			if c[3] != w {
				t.Errorf("%s: %s, tshark %s", c[2], c[3], w)
			}
		}
	}
	if n < 30 {
		t.Errorf("only %d fields in common", n)
	}
	tp := map[string]string{}
	for _, l := range lines(tshark(t, "-G", "protocols")) {
		if c := strings.Split(l, "\t"); len(c) == 3 {
			tp[c[2]] = c[0] + "\t" + c[1]
		}
	}
	out, _, _ = mcd(t, nil, "-G", "protocols")
	n = 0
	for _, l := range lines(out) {
		c := strings.Split(l, "\t")
		if len(c) != 3 {
			t.Errorf("not long name, short name, filter name: %q", l)
			continue
		}
		if w, ok := tp[c[2]]; ok && layerProto(c[2]) {
			n++
			if c[0]+"\t"+c[1] != w {
				t.Errorf("%s: %q, tshark %q", c[2], c[0]+"\t"+c[1], w)
			}
		}
	}
	if n < 6 {
		t.Errorf("only %d protocols in common", n)
	}
}

// TestCompletion: the scripts name every flag of the flag set, and
// complete in the shells that are installed: -T p gives pdml and psml,
// --out gives --output-format, -e query.mo the fields the binary knows.
func TestCompletion(t *testing.T) {
	for _, f := range render.Formats {
		if _, stderr, code := mcd(t, nil, "-r", querySample, "-c", "1", "-T", f, "-e", "frame.number"); code != 0 && !strings.Contains(stderr, "-e is for") {
			t.Errorf("-T %s, listed for completion, is refused: %s", f, stderr)
		}
	}
	for _, g := range glossary.Reports {
		if _, _, code := mcd(t, nil, "-G", g); code != 0 {
			t.Errorf("-G %s, listed for completion, exits %d", g, code)
		}
	}
	dir := t.TempDir()
	if err := os.Symlink(binary, filepath.Join(dir, "mcdissect")); err != nil {
		t.Fatal(err)
	}
	path := dir + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			script, _, code := mcd(t, nil, "completion", shell)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			for _, name := range completionCommand().FlagNames() {
				if !strings.Contains(script, name) {
					t.Errorf("the script does not name --%s", name)
				}
			}
			bin, err := exec.LookPath(shell)
			if err != nil {
				t.Skipf("%s is not installed: the script is not run", shell)
			}
			file := filepath.Join(dir, "c."+shell)
			os.WriteFile(file, []byte(script), 0o644)
			var prog string
			switch shell {
			case "bash":
				prog = `source ` + file + `
c() { COMP_WORDS=("$@"); COMP_CWORD=$(($#-1)); _mcdissect; echo "${COMPREPLY[*]}"; }
c mcdissect -T p; c mcdissect --out; c mcdissect -e query.mo`
			case "fish":
				prog = `source ` + file + `; complete -C "mcdissect -T p" | string join " "; complete -C "mcdissect --out" | string join " "; complete -C "mcdissect -e query.mo" | string join " "`
			case "zsh":
				// zsh completes only in an interactive line editor: the
				// script is checked for syntax, and loaded.
				prog = `autoload -U compinit; compinit -u -d ` + dir + `/zcomp; source ` + file + `; print ${+_comps[mcdissect]}`
			}
			args := []string{"-c", prog}
			if shell == "zsh" {
				args = []string{"-f", "-c", prog}
				if out, err := exec.Command(bin, "-n", file).CombinedOutput(); err != nil {
					t.Fatalf("zsh -n: %v\n%s", err, out)
				}
			}
			cmd := exec.Command(bin, args...)
			cmd.Env = append(os.Environ(), "PATH="+path)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			got := string(out)
			if shell == "zsh" {
				if strings.TrimSpace(got) != "1" {
					t.Errorf("compdef did not register the completion: %q", got)
				}
				return
			}
			l := lines(got)
			if len(l) != 3 || !strings.Contains(l[0], "pdml") || !strings.Contains(l[0], "psml") || !strings.Contains(l[1], "--output-format") ||
				!strings.Contains(l[2], "query.motd") || !strings.Contains(l[2], "query.motd.plain") {
				t.Errorf("completions:\n%s", got)
			}
		})
	}
}

func layerProto(p string) bool {
	return slices.Contains([]string{"frame", "eth", "ip", "ipv6", "tcp", "udp"}, p)
}
