package main

import (
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
)

// serversStat is -z mc,servers: a census of every server seen, one row
// each, from what the servers themselves said (status responses, Query
// stats, legacy ping replies, Classic server identifications) and who
// talked to them.
type serversStat struct {
	idx    map[netip.AddrPort]int
	rows   []*serverRow
	others int // PDUs of servers past maxServers
}

// maxServers bounds the census; maxClientsKept and maxSamples bound a row.
const (
	maxServers     = 1 << 14
	maxClientsKept = 1 << 14
	maxModNames    = 64
)

// Protocol bits of a census row.
const (
	seenQuery = 1 << iota
	seenSLP
	seenLegacy
	seenClassic
)

type serverRow struct {
	addr           netip.AddrPort
	protos         int
	motd, version  string
	protocol       string
	online         samples
	max            int64
	hasMax         bool
	favicon        bool
	mods           []string
	modCount       int
	first, last    time.Time
	clients        map[netip.Addr]struct{}
	clientsOverCap bool
	// For the merge of shards' censuses (stats_merge.go): the Seq of the
	// record that last set a value, plus one (0: never set), that of the
	// first and last records, of each mod's first; and the PDUs counted.
	motdAt, versionAt, protocolAt, maxAt uint64
	firstAt, lastAt                      uint64
	modAt                                []uint64
	pdus                                 int
}

func newServersStat() *serversStat { return &serversStat{idx: map[netip.AddrPort]int{}} }

// serverSide returns the server's and the client's address of a record.
func serverSide(r *analyze.Record) (server, client netip.AddrPort, ok bool) {
	switch r.PDU.Dir {
	case dissect.DirS2C:
		return r.Src, r.Dst, true
	case dissect.DirC2S:
		return r.Dst, r.Src, true
	}
	return netip.AddrPort{}, netip.AddrPort{}, false
}

func (s *serversStat) add(r *analyze.Record) {
	if r.Kind != analyze.KindPDU || r.Proto == "classic-heartbeat" {
		return
	}
	srv, cl, ok := serverSide(r)
	if !ok {
		return
	}
	// A Classic heartbeat goes from the Minecraft server to the list
	// service: that is not a server of the census.
	if r.PDU.Find("classic.heartbeat") >= 0 {
		return
	}
	var row *serverRow
	if i, ok := s.idx[srv]; ok {
		row = s.rows[i]
	} else if len(s.rows) < maxServers {
		row = &serverRow{addr: srv, first: r.Time, firstAt: r.Seq(), clients: map[netip.Addr]struct{}{}}
		s.idx[srv] = len(s.rows)
		s.rows = append(s.rows, row)
	} else {
		s.others++
		return
	}
	at := r.Seq() + 1
	row.last, row.lastAt = r.Time, r.Seq()
	row.pdus++
	if _, ok := row.clients[cl.Addr()]; !ok {
		if len(row.clients) < maxClientsKept {
			row.clients[cl.Addr()] = struct{}{}
		} else {
			row.clientsOverCap = true
		}
	}
	switch r.Proto {
	case "query":
		row.protos |= seenQuery
	case "classic":
		row.protos |= seenClassic
	case "slp":
		row.protos |= seenSLP
	}
	p := &r.PDU
	var name, motd string
	for i := range p.Nodes {
		n := &p.Nodes[i]
		switch n.Name() {
		case "slp.status.description", "query.motd", "slp.legacy.motd", "classic.motd":
			if t := plainText(n); t != "" {
				motd = t
			}
		case "classic.server_name":
			name = plainText(n)
		case "slp.status.version.name", "query.version", "slp.legacy.server_version":
			row.version, row.versionAt = plainText(n), at
		case "slp.status.version.protocol":
			row.protocol, row.protocolAt = strconv.FormatInt(n.Value.Int(), 10), at
		case "slp.legacy.protocol_version", "classic.protocol_version":
			if r.PDU.Dir == dissect.DirS2C {
				row.protocol, row.protocolAt = strconv.FormatUint(n.Value.N, 10), at
			}
		case "slp.status.players.online", "slp.legacy.online":
			row.online.add(n.Value.Int())
		case "query.numplayers.value":
			row.online.add(int64(n.Value.N))
		case "slp.status.players.max", "slp.legacy.max":
			row.max, row.hasMax, row.maxAt = n.Value.Int(), true, at
		case "query.maxplayers.value":
			row.max, row.hasMax, row.maxAt = int64(n.Value.N), true, at
		case "slp.status.favicon":
			row.favicon = true
		case "slp.status.forge.mod.id", "slp.status.modinfo.mod.id", "query.plugin":
			row.addMod(plainText(n), at)
		case "query.plugins":
			row.addPlugins(plainText(n), at)
		}
		if strings.HasPrefix(n.Field.Name, "slp.legacy.") && r.PDU.Dir == dissect.DirS2C {
			row.protos |= seenLegacy
		}
	}
	if name != "" && motd != "" {
		motd = name + " — " + motd
	} else if name != "" {
		motd = name
	}
	if motd != "" {
		row.motd, row.motdAt = motd, at
	}
}

func (row *serverRow) addMod(m string, at uint64) {
	if m == "" || slices.Contains(row.mods, m) {
		return
	}
	row.modCount++
	if len(row.mods) < maxModNames {
		row.mods = append(row.mods, m)
		row.modAt = append(row.modAt, at)
	}
}

// addPlugins reads Query's "Server software: A 1.0; B 2.0" plugins value.
func (row *serverRow) addPlugins(v string, at uint64) {
	_, list, ok := strings.Cut(v, ":")
	if !ok {
		return
	}
	for _, p := range strings.Split(list, ";") {
		row.addMod(strings.TrimSpace(p), at)
	}
}

// plainText is a string node's text without colour and format codes (§
// and Classic's &), with control characters escaped.
func plainText(n *dissect.Node) string {
	s := n.Text
	if s == "" {
		s = n.Value.View()
	}
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		if (c == '§' || c == '&') && i+1 < len(rs) && strings.ContainsRune("0123456789abcdefklmnorABCDEFKLMNOR", rs[i+1]) {
			i++
			continue
		}
		b.WriteRune(c)
	}
	return strings.TrimSpace(string(dissect.AppendSafe(nil, b.String())))
}

func (s *serversStat) print(w io.Writer) {
	fmt.Fprint(w, rule, "Minecraft servers\n", rule)
	if len(s.rows) == 0 {
		fmt.Fprintln(w, "No server seen.")
	}
	for i, r := range s.rows {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s  [%s]\n", r.addr, r.protoList())
		if r.motd != "" {
			fmt.Fprintf(w, "  MOTD:      %s\n", r.motd)
		}
		if r.version != "" || r.protocol != "" {
			v := r.version
			if r.protocol != "" {
				v = strings.TrimSpace(v + " (protocol " + r.protocol + ")")
			}
			fmt.Fprintf(w, "  Version:   %s\n", v)
		}
		if r.online.n > 0 || r.hasMax {
			pl := "-"
			if r.online.n > 0 {
				lo, med, hi := r.online.minMedMax()
				pl = fmt.Sprintf("min %d, median %d, max %d online (%d reports)", lo, med, hi, r.online.n)
			}
			if r.hasMax {
				pl += fmt.Sprintf(", max players %d", r.max)
			}
			fmt.Fprintf(w, "  Players:   %s\n", pl)
		}
		fav := "no"
		if r.favicon {
			fav = "yes"
		}
		fmt.Fprintf(w, "  Favicon:   %s\n", fav)
		if r.modCount > 0 {
			names := strings.Join(r.mods, ", ")
			if r.modCount > len(r.mods) {
				names += ", …"
			}
			fmt.Fprintf(w, "  Mods:      %d: %s\n", r.modCount, safe(names))
		}
		clients := strconv.Itoa(len(r.clients))
		if r.clientsOverCap {
			clients = "more than " + clients
		}
		fmt.Fprintf(w, "  Seen:      %s to %s, %s client addresses\n", fmtAbs(r.first), fmtAbs(r.last), clients)
	}
	if s.others > 0 {
		fmt.Fprintf(w, "\n[%d PDUs of servers past the first %d are not listed]\n", s.others, maxServers)
	}
	fmt.Fprint(w, rule)
}

func (r *serverRow) protoList() string {
	var out []string
	for _, p := range []struct {
		bit  int
		name string
	}{{seenQuery, "Query"}, {seenSLP, "SLP"}, {seenLegacy, "legacy ping"}, {seenClassic, "Classic"}} {
		if r.protos&p.bit != 0 {
			out = append(out, p.name)
		}
	}
	return strings.Join(out, ", ")
}

// fmtAbs is an absolute UTC time with nanoseconds.
func fmtAbs(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05.000000000") }

// samples keeps integer observations for min, median, p95 and max with
// bounded memory: past maxSamples it keeps every second value and then
// samples at half the rate (deterministic: no randomness), so the median
// and percentiles become those of an even subsample; min and max stay exact.
type samples struct {
	vals    []int64
	n       int // observations
	stride  int
	lo, hi  int64
	pending int
}

const maxSamples = 1 << 14

func (s *samples) add(v int64) {
	if s.n == 0 || v < s.lo {
		s.lo = v
	}
	if s.n == 0 || v > s.hi {
		s.hi = v
	}
	s.n++
	if s.stride == 0 {
		s.stride = 1
	}
	s.pending++
	if s.pending < s.stride {
		return
	}
	s.pending = 0
	if len(s.vals) == maxSamples {
		k := 0
		for i := 0; i < len(s.vals); i += 2 {
			s.vals[k] = s.vals[i]
			k++
		}
		s.vals = s.vals[:k]
		s.stride *= 2
	}
	s.vals = append(s.vals, v)
}

// quantile of the kept values (0 ≤ q ≤ 1), nearest rank.
func (s *samples) quantile(q float64) int64 {
	if len(s.vals) == 0 {
		return 0
	}
	v := slices.Clone(s.vals)
	slices.Sort(v)
	i := int(q*float64(len(v)-1) + 0.5)
	return v[i]
}

func (s *samples) minMedMax() (int64, int64, int64) { return s.lo, s.quantile(0.5), s.hi }

// rttStat is -z mc,rtt: response times per server: Query responses,
// status responses (SLP "time since request") and ping round trips.
type rttStat struct {
	idx  map[rttKey]int
	rows []*rttRow
}

type rttKey struct {
	server netip.AddrPort
	kind   string
}

type rttRow struct {
	k  rttKey
	s  samples // nanoseconds
	at uint64  // the Seq of its first record
}

func newRTTStat() *rttStat { return &rttStat{idx: map[rttKey]int{}} }

func (s *rttStat) add(r *analyze.Record) {
	if r.Kind != analyze.KindPDU {
		return
	}
	srv, _, ok := serverSide(r)
	if !ok {
		return
	}
	for i := range r.PDU.Nodes {
		n := &r.PDU.Nodes[i]
		var kind string
		switch n.Field.Name {
		case "query.time":
			kind = "Query response"
		case "slp.time":
			kind = "SLP status response"
		case "slp.rtt":
			kind = "SLP ping round trip"
		default:
			continue
		}
		k := rttKey{srv, kind}
		j, ok := s.idx[k]
		if !ok {
			if len(s.rows) >= maxServers {
				continue
			}
			j = len(s.rows)
			s.idx[k] = j
			s.rows = append(s.rows, &rttRow{k: k, at: r.Seq()})
		}
		s.rows[j].s.add(int64(n.Value.Float() * 1e9))
	}
}

func (s *rttStat) print(w io.Writer) {
	fmt.Fprint(w, rule, "Minecraft response times (ms)\n", rule)
	fmt.Fprintf(w, "%-28s %-20s %7s %9s %9s %9s %9s\n", "Server", "Kind", "Count", "Min", "Median", "p95", "Max")
	ms := func(ns int64) string { return strconv.FormatFloat(float64(ns)/1e6, 'f', 3, 64) }
	for _, r := range s.rows {
		fmt.Fprintf(w, "%-28s %-20s %7d %9s %9s %9s %9s\n", r.k.server, r.k.kind, r.s.n, ms(r.s.lo), ms(r.s.quantile(0.5)), ms(r.s.quantile(0.95)), ms(r.s.hi))
	}
	if len(s.rows) == 0 {
		fmt.Fprintln(w, "No response times: no Query response, status response or pong with its request in the capture.")
	}
	fmt.Fprint(w, rule)
}
