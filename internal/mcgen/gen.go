package mcgen

import (
	"errors"
	"io"
	"net/netip"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// Config says what to generate.
type Config struct {
	// Size is the pcap size in bytes at which no new traffic starts; the
	// conversations still open are then brought to an end (pending
	// responses answered, SLP conversations completed, Classic level
	// downloads completed, every connection closed), so the file ends a
	// little larger: a few hundred KB with the default Conns.
	Size int64
	// Seed selects the capture: the same Config writes the same bytes.
	Seed uint64
	// Conns is how many conversations are open at once (default 200).
	Conns int
	// Share is the target share of bytes of Query, SLP and Classic, in any
	// unit (default 20, 40, 40).
	Share [3]int
	// Capgen writes through internal/capgen (gopacket serialisation)
	// instead of the fast writer: same bytes, several times slower.
	Capgen bool
	// MaxSeg, when set, is the largest TCP payload of a segment (1: every
	// byte of every stream in a segment of its own); 0 is the MSS, 1448.
	MaxSeg int
	// BigLevels gives the Classic servers levels of 256×64×256 and
	// 512×64×512 blocks (4 and 16 MiB inflated) instead of 64×32×64 to
	// 128×64×128.
	BigLevels bool
	// Play makes every SLP connection log in and go on into the play
	// state (1.21.1): chunks, entity movement, positions, chat,
	// keep-alives (play.go).
	Play bool
}

// Mixes are the named workloads of cmd/mcgen -mix and bench/compare.sh:
// the same generator with other shares, connection counts, level sizes or
// segment sizes, so that a benchmark is never a sample of one capture.
var Mixes = []string{"project", "slp", "query", "classic-big", "onebyte", "play"}

// ApplyMix sets cfg for a named mix (Mixes) on top of its Size and Seed.
func ApplyMix(cfg *Config, mix string) error {
	switch mix {
	case "", "project":
		// the defaults: Query 20%, SLP 40%, Classic 40%, 200 conversations
	case "slp":
		cfg.Share = [3]int{5, 85, 10} // status pings and logins, a little of the rest
	case "query":
		cfg.Share = [3]int{80, 10, 10} // many clients, many tokens
		cfg.Conns = 2000
	case "classic-big":
		cfg.Share = [3]int{5, 5, 90}
		cfg.BigLevels = true
	case "play":
		cfg.Share = [3]int{5, 90, 5} // Java sessions in the play state, a little of the rest
		cfg.Play = true
	case "onebyte":
		cfg.MaxSeg = 1 // every TCP payload byte a segment of its own
		cfg.Conns = 16 // what is open at the end is finished byte by byte too
	default:
		return errors.New("mcgen: unknown mix " + mix + " (one of project, slp, query, classic-big, onebyte, play)")
	}
	return nil
}

// Stats counts what Generate wrote.
type Stats struct {
	Bytes         int64         // pcap file size
	Packets       int64         // UDPPackets + TCPPackets
	UDPPackets    int64         // Query datagrams
	TCPPackets    int64         // segments, with handshakes and closes
	QuerySessions int           // Query exchanges (handshake then stat requests)
	SLPStatus     int           // SLP connections of the status state
	SLPLogin      int           // SLP connections that log in
	ClassicConns  int           // Classic connections
	Reordered     int           // segment pairs sent in the wrong order
	Retransmitted int           // segments (or tails) sent twice
	Resets        int           // connections ended by an RST
	ProtoBytes    [3]int64      // pcap bytes of Query, SLP, Classic packets
	Duration      time.Duration // capture time from first to last packet
}

// Protocol indexes of Stats.ProtoBytes and Config.Share.
const (
	Query = iota
	SLP
	Classic
)

// SmallConfig is the preset of the tests (mcgen -small): about 1 MB, with
// fewer conversations open at once so that each still runs its course.
func SmallConfig(seed uint64) Config { return Config{Size: 1 << 20, Seed: seed, Conns: 32} }

// start is the capture's first timestamp (1.21.1 came out in August 2024).
var start = time.Date(2024, 8, 9, 12, 0, 0, 0, time.UTC).UnixMicro()

// stepMicros is how far a connection's clock moves per segment it sends
// back to back.
const stepMicros = 12

type actor interface {
	// step sends the conversation's next burst; it reports whether the
	// conversation is over.
	step() bool
	// finish ends the conversation at the end of the capture.
	finish()
	proto() int
}

type gen struct {
	cfg     Config
	r       rng
	be      backend
	clock   int64
	st      *Stats
	a       *assetSet
	java    []*javaServer
	classic []*classicServer
	hosts   []clientHost
	planned [3]int64
	free    [3][]actor // finished actors, reused with their buffers
}

type clientHost struct {
	addr netip.Addr
	port uint16 // next ephemeral port
}

// Generate writes a capture to out.
func Generate(out io.Writer, cfg Config) (Stats, error) {
	var st Stats
	if cfg.Size <= 0 {
		return st, errors.New("mcgen: size must be positive")
	}
	if cfg.Conns <= 0 {
		cfg.Conns = 200
	}
	if cfg.Share == [3]int{} {
		cfg.Share = [3]int{20, 40, 40}
	}
	g := &gen{cfg: cfg, r: rng{s: cfg.Seed}, clock: start, st: &st, a: getAssets()}
	if cfg.BigLevels {
		g.a = getBigAssets()
	}
	cw := &countWriter{w: out}
	if cfg.Capgen {
		w, err := capgen.New(cw)
		if err != nil {
			return st, err
		}
		w.Step = stepMicros * time.Microsecond
		g.be = &capWriter{w: w, count: cw}
	} else {
		w, err := newFastWriter(cw, stepMicros)
		if err != nil {
			return st, err
		}
		g.be = w
	}
	g.setup()

	slots := make([]actor, cfg.Conns)
	for i := range slots {
		slots[i] = g.spawn()
	}
	for g.be.written() < cfg.Size {
		i := g.r.intn(len(slots))
		a := slots[i]
		g.advance()
		before := g.be.written()
		done := a.step()
		st.ProtoBytes[a.proto()] += g.be.written() - before
		if done {
			g.free[a.proto()] = append(g.free[a.proto()], a)
			slots[i] = g.spawn()
		}
	}
	for _, a := range slots {
		g.advance()
		before := g.be.written()
		a.finish()
		st.ProtoBytes[a.proto()] += g.be.written() - before
	}
	err := g.be.close()
	st.Bytes = cw.n
	st.Packets = st.UDPPackets + st.TCPPackets
	st.Duration = time.Duration(g.clock-start) * time.Microsecond
	return st, err
}

// advance moves the clock between two bursts: mostly tens of
// microseconds, now and then a few milliseconds of quiet.
func (g *gen) advance() {
	if g.r.permille(15) {
		g.clock += int64(g.r.between(1000, 6000))
	} else {
		g.clock += int64(g.r.between(1, 150))
	}
}

// spawn starts a conversation of a protocol behind its share of the bytes
// (written, plus half of what the open conversations still plan to
// write): the one furthest behind.
func (g *gen) spawn() actor {
	var total, shares int64
	var have [3]int64
	for p := range 3 {
		have[p] = g.st.ProtoBytes[p] + (g.planned[p]-g.st.ProtoBytes[p])/2
		total += have[p]
		shares += int64(g.cfg.Share[p])
	}
	best, bestDef := 0, int64(-1<<62)
	for p := range 3 {
		if def := int64(g.cfg.Share[p])*(total+1<<20)/shares - have[p]; def > bestDef {
			best, bestDef = p, def
		}
	}
	var a actor
	if n := len(g.free[best]); n > 0 {
		a = g.free[best][n-1]
		g.free[best] = g.free[best][:n-1]
	}
	var plan int
	switch best {
	case Query:
		q, _ := a.(*queryActor)
		if q == nil {
			q = &queryActor{}
		}
		plan = q.init(g)
		a = q
	case SLP:
		s, _ := a.(*slpActor)
		if s == nil {
			s = &slpActor{}
		}
		plan = s.init(g)
		a = s
	default:
		c, _ := a.(*classicActor)
		if c == nil {
			c = &classicActor{}
		}
		plan = c.init(g)
		a = c
	}
	g.planned[best] += int64(plan)
	return a
}

func (g *gen) setup() {
	for i := range 4 {
		s := &javaServer{
			v4:      netip.AddrFrom4([4]byte{203, 0, 113, byte(10 + i)}),
			v6:      netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, byte(0x10 + i)}),
			motd:    motds[i*2%len(motds)],
			slpMotd: slpMotds[i%len(slpMotds)],
			plugins: plugins[i%len(plugins)],
			max:     []int{20, 100, 50, 200}[i],
			favicon: i - 1, // the first server has none
		}
		n := g.r.intn(s.max*2/3 + 1)
		for range n {
			s.addPlayer(&g.r)
		}
		g.java = append(g.java, s)
	}
	for i := range 2 {
		g.classic = append(g.classic, &classicServer{
			addr:  netip.AddrFrom4([4]byte{198, 51, 100, byte(20 + i)}),
			name:  classicServers[i%len(classicServers)],
			motd:  classicMotds[i%len(classicMotds)],
			salt:  []string{"wo6kVAHjxoJcInKx", "Qe8rT2yUvB4nM7pZ"}[i],
			level: i,
		})
	}
	for i := range 3000 {
		var h clientHost
		if i%10 == 9 {
			var a [16]byte
			a[0], a[1], a[2], a[3] = 0x20, 0x01, 0x0d, 0xb8
			for j := 8; j < 16; j++ {
				a[j] = byte(g.r.next())
			}
			a[4] = 1
			h.addr = netip.AddrFrom16(a)
		} else {
			h.addr = netip.AddrFrom4([4]byte{10, byte(1 + g.r.intn(250)), byte(g.r.intn(256)), byte(1 + g.r.intn(254))})
		}
		h.port = uint16(32768 + g.r.intn(28000))
		g.hosts = append(g.hosts, h)
	}
}

// client picks a client address: one of a few thousand hosts (a tenth of
// them IPv6), each allocating ephemeral ports in turn, so that no 4-tuple
// repeats for a long while.
func (g *gen) client(v4only bool) netip.AddrPort {
	h := &g.hosts[g.r.intn(len(g.hosts))]
	for v4only && h.addr.Is6() {
		h = &g.hosts[g.r.intn(len(g.hosts))]
	}
	port := h.port
	h.port++
	if h.port > 60999 {
		h.port = 32768
	}
	return netip.AddrPortFrom(h.addr, port)
}

// javaFor picks a Java server and its address of the client's family.
func (g *gen) javaFor(cl netip.AddrPort) (*javaServer, netip.AddrPort) {
	js := g.java[g.r.intn(len(g.java))]
	a := js.v4
	if cl.Addr().Is6() {
		a = js.v6
	}
	return js, netip.AddrPortFrom(a, 25565)
}

// udp writes one Query datagram.
func (g *gen) udp(src, dst netip.AddrPort, payload []byte) {
	g.be.udp(g.clock, src, dst, payload)
	g.st.UDPPackets++
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
