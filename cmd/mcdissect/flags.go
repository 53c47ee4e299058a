package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/capture/ringbuf"
	"github.com/mcdissect/mcdissect/dissect/classic"
	"github.com/mcdissect/mcdissect/dissect/slp"
	"github.com/mcdissect/mcdissect/export"
	"github.com/mcdissect/mcdissect/internal/profile"
	"github.com/mcdissect/mcdissect/output"
	"github.com/mcdissect/mcdissect/protocols/prefs"
	"github.com/mcdissect/mcdissect/render"
	"github.com/mcdissect/mcdissect/stats"
)

var errHelp = errors.New("help")

// config is the parsed command line.
type config struct {
	ship                               shipFlags
	read, iface, capFilter, dispFilter string
	quiet                              bool
	statHelp                           bool // -z help
	decodeAs, stats                    []string
	count                              int
	countSet                           bool // -c given, so that -c 0 is refused as tshark does
	write                              string
	glossary                           string
	classicSalt                        string
	statz                              stats.Set        // -z, made from stats
	exporter                           *export.Exporter // --export-objects, or nil
	exportObjects                      string
	noHeuristics                       bool
	keyLog, javaVersion                string
	autostop, ring                     []string
	limits                             ringbuf.Limits // ringbuf.go: -a, -b, -c with -w
	snaplen, bufferMiB                 int
	noPromisc, noKernelFilter          bool
	findServers                        bool
	listIfaces                         bool
	cpuProfile, memProfile             string
	lineBuffered, printPackets         bool
	twoPass                            bool
	hold                               holdFlag   // hold.go: --hold
	serve                              serveFlags // serve.go: --serve

	out     output.Flags // -T, -e, -E, -V, -x, --explain, --redact; outputs.go: -t, -O, --color
	version bool         // outputs.go: --version
	habits  habitFlags   // habits.go: -n, -N, -o
	note    string       // said on stderr before the run (-N)

	opts  analyze.Options
	ropts render.Options
}

const usageHead = `mcdissect dissects Minecraft server traffic — Query (UDP), Server List Ping
and Classic (TCP) — the way tshark shows a protocol it knows.

Usage:
  mcdissect -r FILE [flags]            read a pcap or pcapng file (- for stdin)
  mcdissect -i IFACE [flags]           capture live (needs root)
  mcdissect decode --proto P --from client|server HEX
                                       decode bytes typed on the command line
  mcdissect completion bash|zsh|fish   print a shell completion script

Examples:
  mcdissect -r samples/query-full.pcap                  one summary line per PDU
  mcdissect -r samples/query-full.pcap -V -x            full tree and annotated hex
  mcdissect -r samples/query-full.pcap -V --explain     each field explained, its bytes worked out
  mcdissect -r cap.pcap -Y 'query.type == 0'            only PDUs matching a display filter
  mcdissect -r cap.pcap -T fields -e frame.number -e query.motd
  mcdissect -r cap.pcap -T json > cap.json
  mcdissect -r cap.pcap -T html > lesson.html           the capture as a page to click through
  mcdissect -r cap.pcap -d udp.port==25575,query        Query on a non-default port
  mcdissect -r cap.pcap -q -z mc,stat -z expert         statistics only
  mcdissect -r busy.pcap -V -2                          two passes: every request shows its response's frame
  mcdissect -G fields                                   every field name
  mcdissect decode --proto query --from client 'FE FD 09 00 00 00 01'

Flags:
`

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	c := &config{}
	fs, help := c.flagSet(stderr)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if *help {
		fs.SetOutput(stderr)
		fs.Usage()
		return nil, errHelp
	}
	if c.version {
		return c, errVersion
	}
	c.countSet = fs.Changed("count")
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (a display filter goes after -Y)", fs.Arg(0))
	}
	return c, c.check()
}

// flagSet defines every flag into c; completion.go reads the same set.
func (c *config) flagSet(stderr io.Writer) (*pflag.FlagSet, *bool) {
	fs := pflag.NewFlagSet("mcdissect", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	fs.StringVarP(&c.read, "read-file", "r", "", "read packets from `FILE` (pcap or pcapng; - is standard input), e.g. -r samples/query-full.pcap")
	fs.StringVarP(&c.iface, "interface", "i", "", "capture live on `IFACE`, e.g. -i lo (Linux; elsewhere the libpcap build, go build -tags pcap)")
	fs.StringVarP(&c.capFilter, "capture-filter", "f", "", "capture `FILTER` for -i in tcpdump's syntax (host, net, port, portrange, tcp, udp, ip, ip6, src/dst, and/or/not; every tcpdump filter in the libpcap build), e.g. -f 'udp port 25565'")
	fs.IntVarP(&c.snaplen, "snapshot-length", "s", 0, "keep at most `N` bytes of each packet of -i (default 262144), e.g. -s 1500")
	fs.BoolVarP(&c.noPromisc, "no-promiscuous-mode", "p", false, "do not put the interface in promiscuous mode, e.g. -p")
	fs.IntVarP(&c.bufferMiB, "buffer-size", "B", 0, "kernel capture buffer of `MiB` for -i (default 16), e.g. -B 64")
	fs.BoolVarP(&c.listIfaces, "list-interfaces", "D", false, "list the interfaces -i can capture on, and exit, e.g. -D")
	fs.BoolVar(&c.noKernelFilter, "no-kernel-filter", false, "with -i and no -f, capture every packet (by default the kernel passes only the ports mcdissect dissects and the Classic heartbeat's connections on port 80), e.g. --no-kernel-filter")
	fs.BoolVar(&c.findServers, "find-servers", false, "with -i, pass the first packets of every connection to the heuristics too, and capture the ports where they find a Minecraft server from then on (Linux, with eBPF), e.g. --find-servers")
	fs.StringArrayVarP(&c.autostop, "autostop", "a", nil, "stop at `COND` (repeatable): duration:S of a live capture, filesize:KB of the -w file (1 kB = 1000 bytes), packets:N read or captured, files:N of -b, e.g. -a duration:3600 -a filesize:100000")
	fs.StringArrayVarP(&c.ring, "ring-buffer", "b", nil, "with -i and -w, write files in turn as dumpcap (repeatable): `OPT` filesize:KB, duration:S, interval:S or packets:N ends a file, files:N keeps the newest N; -w srv.pcapng makes srv_00001_YYYYmmddHHMMSS.pcapng, ..., e.g. -b filesize:100000 -b files:24")
	fs.StringVarP(&c.dispFilter, "display-filter", "Y", "", "show only PDUs matching `FILTER`, e.g. -Y 'slp.handshake.next_state == 1 && mc.direction == \"c2s\"'")
	fs.BoolVarP(&c.out.Verbose, "verbose", "V", false, "show each PDU's full field tree with offsets and lengths, e.g. -V")
	fs.BoolVar(&c.out.Explain, "explain", false, "with -V, explain each field under its line, with the arithmetic of its bytes where it needs some, e.g. -V --explain")
	fs.BoolVarP(&c.out.Hex, "hex", "x", false, "add a hex and ASCII dump laid out field by field, e.g. -x")
	fs.StringVarP(&c.out.Format, "output-format", "T", "text", "output `FORMAT`: text, json, ek (Elasticsearch bulk, as tshark), fields, pdml, psml (tshark's XML) or html (one self-contained page), e.g. -T html > lesson.html")
	fs.StringArrayVarP(&c.out.Fields, "field", "e", nil, "with -T fields, print `FIELD` (repeatable), e.g. -e frame.number -e query.motd")
	fs.StringArrayVarP(&c.out.FieldOpts, "fields-option", "E", nil, "-T fields `OPTION`: header=y|n, separator=/t|/s|C, aggregator=C, occurrence=a|f|l|N (N: the Nth, -1 the last), quote=d|s|n, e.g. -E header=y -E separator=, -E quote=d")
	fs.IntVarP(&c.count, "count", "c", 0, "stop after `N` PDUs; with -w, after N packets read or captured, as tshark, e.g. -c 10")
	fs.BoolVarP(&c.lineBuffered, "line-buffered", "l", false, "write each record out as soon as it is printed (as tshark -l), e.g. -l")
	fs.BoolVarP(&c.printPackets, "print", "P", false, "with -w, print the records too (as tshark -P), e.g. -w out.pcapng -P")
	fs.BoolVarP(&c.twoPass, "two-pass", "2", false, "read the file twice (as tshark -2): a request output before its response came (a busy capture) shows its Response in frame all the same, e.g. -r busy.pcap -2 -V")
	fs.StringVarP(&c.write, "write-file", "w", "", "write the packets read to `FILE` (pcapng; - for standard output, as tshark); with -Y only the frames of matching PDUs; -b for a ring of files, e.g. -w out.pcapng")
	fs.StringArrayVarP(&c.decodeAs, "decode-as", "d", nil, "decode `RULE` <layer>.port==<port>,<proto> (repeatable), e.g. -d udp.port==25575,query -d tcp.port==25580,classic")
	fs.StringArrayVarP(&c.stats, "statistics", "z", nil, "print `STAT` at the end (repeatable; -z help lists them), e.g. -z mc,servers -z conv,tcp -z io,stat,1")
	fs.BoolVarP(&c.quiet, "quiet", "q", false, "print no per-PDU output (with -z), e.g. -q -z mc,stat")
	fs.StringVarP(&c.glossary, "glossary", "G", "", "print a `REPORT` and exit: fields, protocols or experts, e.g. -G fields")
	fs.BoolVar(&c.out.Redact, "redact", false, "mask Classic salts, verification keys and decrypted Java secrets: once learned, every copy in any record of any protocol, in every output (and bytes no dissector understood, which may hold them); not with -w or -z follow,tcp|udp (raw frames), e.g. --redact")
	fs.StringVar(&c.classicSalt, "classic-salt", "", "the Classic server's heartbeat `SALT`, to check verification keys when the heartbeat was not captured, e.g. --classic-salt wo6kVAHjxoJcInKx")
	fs.StringVar(&c.keyLog, "keylog", "", "open encrypted Java sessions with the keys in `FILE`: MC_SHARED_SECRET lines and/or the server's RSA key in PEM (as -o slp.keylog_file:FILE), e.g. --keylog session.keylog")
	fs.StringVar(&c.javaVersion, "java-version", "", "read Java sessions whose handshake was not captured as `VERSION[,STATE]`: a release or protocol number, state play (default) or configuration (as -o slp.version:V), e.g. --java-version 1.20.4")
	fs.StringVar(&c.exportObjects, "export-objects", "", "write carried files as `KIND,DIR` ("+strings.Join(export.Help(), "; ")+"), e.g. --export-objects favicon,/tmp/icons")
	fs.BoolVar(&c.noHeuristics, "no-heuristics", false, "pick protocols by port and -d only, e.g. --no-heuristics")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a pprof CPU profile to `FILE`, e.g. --cpuprofile cpu.out")
	fs.StringVar(&c.memProfile, profile.HeapFlag, "", "write a pprof heap profile to `FILE` at exit, e.g. --memprofile mem.out")
	c.addOutputFlags(fs) // outputs.go
	c.ship.add(fs)
	c.hold.add(fs)   // hold.go
	c.serve.add(fs)  // serve.go
	c.habits.add(fs) // habits.go
	help := fs.BoolP("help", "h", false, "show this help")
	fs.Usage = func() {
		fmt.Fprint(stderr, usageHead)
		fs.PrintDefaults()
	}
	return fs, help
}

// check validates combinations and resolves names, so that every mistake
// is one clear line before any packet is read.
func (c *config) check() error {
	if c.glossary != "" || c.listIfaces {
		return nil
	}
	if slices.Contains(c.stats, "help") {
		c.statHelp = true // -z help lists the statistics and exits, as tshark
		return nil
	}
	note, err := c.habits.check(c) // habits.go: -n, -N, -o
	if err != nil {
		return err
	}
	c.note = note
	if c.read == "" && c.iface == "" {
		return errors.New("no input: give -r FILE or -i IFACE (see --help)")
	}
	if c.read != "" && c.iface != "" {
		return errors.New("-r and -i cannot be used together")
	}
	if c.capFilter != "" && c.iface == "" {
		return errors.New("-f is a capture filter for -i; to filter a file use -Y")
	}
	if c.twoPass && (c.iface != "" || c.read == "-") {
		return errors.New("-2 reads the capture twice: it needs -r FILE, not a live capture or standard input")
	}
	if (c.snaplen != 0 || c.bufferMiB != 0 || c.noPromisc || c.noKernelFilter) && c.iface == "" {
		return errors.New("-s, -B, -p and --no-kernel-filter are for live captures (-i)")
	}
	if c.snaplen < 0 || c.bufferMiB < 0 {
		return errors.New("-s and -B must be positive")
	}
	if c.findServers && (c.iface == "" || c.capFilter != "" || c.noKernelFilter || c.noHeuristics) {
		return errors.New("--find-servers follows what the heuristics find in a live capture's default kernel filter: it needs -i, and neither -f, --no-kernel-filter nor --no-heuristics")
	}
	if c.ropts, err = c.out.Options(output.Title(c.read, c.iface)); err != nil {
		return err
	}
	if c.count < 0 || c.count == 0 && c.countSet {
		return fmt.Errorf("-c %d: the count must be positive", c.count)
	}
	if err := c.checkLimits(); err != nil {
		return err
	}
	if c.out.Redact && c.write != "" {
		// -w copies frames as they are read, before any is dissected:
		// they cannot be masked, and a saved capture must not leak what
		// --redact promises to hide.
		return errors.New("--redact cannot be used with -w: the saved frames would hold the secrets in clear (save without --redact, or redact the output instead)")
	}
	if c.write == "-" && len(c.ring) > 0 {
		return errors.New("-b writes a ring of files: it needs -w FILE, not -w -")
	}
	if c.write == "-" && (c.printPackets || c.out.Verbose || c.out.Hex || c.out.Only != "" || c.out.Format != "text") {
		// As tshark: standard output holds the capture, and nothing else.
		return errors.New("-w - writes the capture to standard output, which cannot also hold dissected records: drop -P, -V, -x, -O and -T (-q -z statistics go to standard error)")
	}
	for _, d := range c.decodeAs {
		rule, err := analyze.ParseDecodeAs(d)
		if err != nil {
			return err
		}
		c.opts.DecodeAs = append(c.opts.DecodeAs, rule)
	}
	c.opts.NoHeuristics = c.noHeuristics
	c.hold.apply(c) // hold.go
	// The protocols' preferences: their flags', then -o's (habits.go).
	if c.opts.Prefs, err = c.habits.set.Values([]prefs.FlagPref{
		{Flag: "--classic-salt", Pref: classic.PrefSalt, Value: c.classicSalt},
		{Flag: "--keylog", Pref: slp.PrefKeyLog, Value: c.keyLog},
		{Flag: "--java-version", Pref: slp.PrefVersion, Value: c.javaVersion},
	}); err != nil {
		return err
	}
	c.opts.Redact = c.out.Redact
	if c.exportObjects != "" {
		var err error
		if c.exporter, err = export.New(c.exportObjects); err != nil {
			return err
		}
	}
	if c.statz, err = stats.NewSet(c.stats); err != nil {
		return err
	}
	if s := c.statz.Payloads(c.stats); s != "" && c.out.Redact {
		// As -w: the payloads are shown as read, and a secret in them
		// may be in any encoding, or in bytes no dissector understood.
		return fmt.Errorf("--redact cannot be used with -z %s: it shows the frames' payloads as read, which --redact cannot mask (-z follow,mc shows the dissected conversation, masked)", s)
	}
	return nil
}
