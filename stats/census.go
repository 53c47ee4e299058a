package stats

import (
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// serversStat is -z mc,servers: a census of every server seen, one row
// each, from what the servers themselves said (status responses, Query
// stats, legacy ping replies, Classic server identifications) and who
// talked to them.
type serversStat struct {
	records
	idx    map[netip.AddrPort]int
	rows   []*serverRow
	others int // PDUs of servers past maxServers
}

// maxServers bounds the census; maxClientsKept and maxSamples bound a row.
const (
	maxServers     = 1 << 14
	maxClientsKept = 1 << 14
	maxModNames    = 64
	maxJoinedNames = 64
)

type serverRow struct {
	addr           netip.AddrPort
	protos         map[string]bool // the registrations' columns seen, and "legacy ping"
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
	joined         []string // the first maxJoinedNames players who joined, with their UUIDs
	joinedSeen     map[string]bool
	joinedCount    int
	brand          string   // the last brand the server said
	clientBrands   []string // the first maxModNames brands its clients said
}

func newServersStat() *serversStat { return &serversStat{idx: map[netip.AddrPort]int{}} }

// serverSide returns the server's and the client's address of a record.
func serverSide(r *record.Record) (server, client netip.AddrPort, ok bool) {
	switch r.PDU.Dir {
	case dissect.DirS2C:
		return r.Src, r.Dst, true
	case dissect.DirC2S:
		return r.Dst, r.Src, true
	}
	return netip.AddrPort{}, netip.AddrPort{}, false
}

// add reads what r tells of its server by the roles of its fields
// (dissect.Role), whatever its protocol.
func (s *serversStat) Record(r *record.Record) {
	if r.Kind != record.KindPDU {
		return
	}
	srv, cl, ok := serverSide(r)
	if !ok {
		return
	}
	p := &r.PDU
	for i := range p.Nodes {
		if p.Nodes[i].Field.Role == dissect.RoleNotServer {
			return // a heartbeat to a list service is not a server of the census
		}
	}
	var row *serverRow
	if i, ok := s.idx[srv]; ok {
		row = s.rows[i]
	} else if len(s.rows) < maxServers {
		row = &serverRow{addr: srv, first: r.Time, protos: map[string]bool{}, clients: map[netip.Addr]struct{}{}}
		s.idx[srv] = len(s.rows)
		s.rows = append(s.rows, row)
	} else {
		s.others++
		return
	}
	row.last = r.Time
	if _, ok := row.clients[cl.Addr()]; !ok {
		if len(row.clients) < maxClientsKept {
			row.clients[cl.Addr()] = struct{}{}
		} else {
			row.clientsOverCap = true
		}
	}
	fromServer := p.Dir == dissect.DirS2C
	if col := protocols.Column(r.Proto); fromServer {
		row.protos[col] = true
	} else if !row.protos[col] {
		row.protos[col+askedOnly] = true
	}
	var name, motd, joined, joinedID string
	for i := range p.Nodes {
		n := &p.Nodes[i]
		switch n.Field.Role {
		case dissect.RoleMOTD:
			if t := plainText(n); t != "" {
				motd = t
			}
		case dissect.RoleServerName:
			name = plainText(n)
		case dissect.RoleVersion:
			row.version = plainText(n)
		case dissect.RoleProtocolVersion:
			if fromServer {
				row.protocol = strconv.FormatInt(intValue(n), 10)
			}
		case dissect.RolePlayersOnline:
			row.online.add(intValue(n))
		case dissect.RolePlayersMax:
			row.max, row.hasMax = intValue(n), true
		case dissect.RoleFavicon:
			row.favicon = true
		case dissect.RoleMod:
			row.addMod(plainText(n))
		case dissect.RolePlayerJoined:
			joined = plainText(n)
		case dissect.RolePlayerID:
			joinedID = plainText(n)
		case dissect.RoleBrand:
			row.addBrand(plainText(n), fromServer)
		case dissect.RoleModList:
			row.addPlugins(plainText(n))
		case dissect.RoleLegacy:
			if fromServer {
				row.protos[legacyPing] = true
			}
		}
	}
	if name != "" && motd != "" {
		motd = name + " — " + motd
	} else if name != "" {
		motd = name
	}
	if motd != "" {
		row.motd = motd
	}
	row.addJoined(joined, joinedID)
}

// legacyPing names, in a row's protocols, the legacy 0xFE ping's replies;
// askedOnly follows a protocol clients spoke to the server in, which it
// never answered in the capture.
const (
	legacyPing = "legacy ping"
	askedOnly  = " (no reply seen)"
)

// intValue is a node's value as an integer: signed or not, or the number
// a text field holds (RakNet's pong is text).
func intValue(n *dissect.Node) int64 {
	switch n.Field.Type {
	case dissect.FTInt:
		return n.Value.Int()
	case dissect.FTString:
		v, _ := strconv.ParseInt(strings.TrimSpace(n.Value.View()), 10, 64)
		return v
	}
	return int64(n.Value.N)
}

// addBrand keeps the brand the server said last, or a brand one of its
// clients said, once each.
func (row *serverRow) addBrand(b string, fromServer bool) {
	switch {
	case b == "":
	case fromServer:
		row.brand = b
	case !slices.Contains(row.clientBrands, b) && len(row.clientBrands) < maxModNames:
		row.clientBrands = append(row.clientBrands, b)
	}
}

func (row *serverRow) addMod(m string) {
	if m == "" || slices.Contains(row.mods, m) {
		return
	}
	row.modCount++
	if len(row.mods) < maxModNames {
		row.mods = append(row.mods, m)
	}
}

// addPlugins reads a list of plugins in Query's "Server software: A 1.0;
// B 2.0" form.
func (row *serverRow) addPlugins(v string) {
	_, list, ok := strings.Cut(v, ":")
	if !ok {
		return
	}
	for _, p := range strings.Split(list, ";") {
		row.addMod(strings.TrimSpace(p))
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

func (s *serversStat) Print(w io.Writer) {
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
		if r.brand != "" || len(r.clientBrands) > 0 {
			b := r.brand
			if b == "" {
				b = "-"
			}
			if len(r.clientBrands) > 0 {
				b += "; clients: " + strings.Join(r.clientBrands, ", ")
			}
			fmt.Fprintf(w, "  Brand:     %s\n", b)
		}
		if r.joinedCount > 0 {
			names := strings.Join(r.joined, ", ")
			if r.joinedCount > len(r.joined) {
				names += ", …"
			}
			fmt.Fprintf(w, "  Joined:    %d: %s\n", r.joinedCount, names)
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

// protoList is the row's protocols, in the registrations' order, the
// legacy ping after them.
func (r *serverRow) protoList() string {
	var out []string
	for _, p := range protocols.All() {
		name := p.Column
		if !r.protos[name] {
			name += askedOnly
		}
		if r.protos[name] && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	if r.protos[legacyPing] {
		out = append(out, legacyPing)
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
// status responses (SLP "time since request") and ping round trips; then
// how the requests to each server ended (mc.outcome), per kind of request.
type rttStat struct {
	records
	idx  map[rttKey]int
	rows []*rttRow
	// outcomes: requests by server and kind, counted per outcome
	oidx  map[rttKey]int
	orows []*outcomeRow
}

type rttKey struct {
	server netip.AddrPort
	kind   string
}

type rttRow struct {
	k rttKey
	s samples // nanoseconds
}

// outcomeRow counts one server's requests of one kind by outcome, in the
// order of outcomeCols.
type outcomeRow struct {
	k rttKey
	n [dissect.NumOutcomes + 1]int // and the unknown, last
}

// outcomeCols are the outcome table's columns: dissect.OutcomeNames.
var outcomeCols = dissect.OutcomeNames()

func newRTTStat() *rttStat { return &rttStat{idx: map[rttKey]int{}, oidx: map[rttKey]int{}} }

func (s *rttStat) Record(r *record.Record) {
	if r.Kind != record.KindPDU && r.Kind != record.KindNote {
		return
	}
	srv, _, ok := serverSide(r)
	if !ok {
		return
	}
	s.outcome(r, srv)
	if r.Kind != record.KindPDU {
		return
	}
	for i := range r.PDU.Nodes {
		n := &r.PDU.Nodes[i]
		var kind string
		switch n.Field.Role {
		case dissect.RoleResponseTime:
			kind = protocols.Column(r.Proto) + " response"
		case dissect.RoleRoundTrip:
			kind = protocols.Column(r.Proto) + " ping round trip"
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
			s.rows = append(s.rows, &rttRow{k: k})
		}
		s.rows[j].s.add(int64(n.Value.Float() * 1e9))
	}
}

// outcome counts r's outcome, when it is a request that has one: a
// child of the root, read by its field, whatever the protocol; or a
// request output before its outcome was known (its protocol's
// "response.unlinked" item), counted as unknown.
func (s *rttStat) outcome(r *record.Record, srv netip.AddrPort) {
	p := &r.PDU
	col := -1
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if n.Field == dissect.FieldOutcome && n.Parent == 0 {
			col = slices.Index(outcomeCols, n.Value.View())
			break
		}
	}
	if col < 0 {
		for _, e := range p.Experts {
			if strings.HasSuffix(e.Info.Name, ".response.unlinked") {
				col = len(outcomeCols)
			}
		}
	}
	if col < 0 {
		return
	}
	k := rttKey{srv, protocols.Column(r.Proto) + " " + p.Message}
	j, ok := s.oidx[k]
	if !ok {
		if len(s.orows) >= maxServers {
			return
		}
		j = len(s.orows)
		s.oidx[k] = j
		s.orows = append(s.orows, &outcomeRow{k: k})
	}
	s.orows[j].n[col]++
}

// unknown reports whether a request's outcome was not known.
func (s *rttStat) unknown() bool {
	for _, r := range s.orows {
		if r.n[len(outcomeCols)] > 0 {
			return true
		}
	}
	return false
}

func (s *rttStat) Print(w io.Writer) {
	fmt.Fprint(w, rule, "Minecraft response times (ms)\n", rule)
	fmt.Fprintf(w, "%-28s %-20s %7s %9s %9s %9s %9s\n", "Server", "Kind", "Count", "Min", "Median", "p95", "Max")
	ms := func(ns int64) string { return strconv.FormatFloat(float64(ns)/1e6, 'f', 3, 64) }
	for _, r := range s.rows {
		fmt.Fprintf(w, "%-28s %-20s %7d %9s %9s %9s %9s\n", r.k.server, r.k.kind, r.s.n, ms(r.s.lo), ms(r.s.quantile(0.5)), ms(r.s.quantile(0.95)), ms(r.s.hi))
	}
	if len(s.rows) == 0 {
		fmt.Fprintln(w, "No response times: no Query response, status response or pong with its request in the capture.")
	}
	if len(s.orows) > 0 {
		fmt.Fprint(w, rule, "Requests by outcome (mc.outcome)\n", rule)
		fmt.Fprintf(w, "%-28s %-38s", "Server", "Request")
		for _, c := range outcomeCols {
			fmt.Fprintf(w, " %10s", c)
		}
		fmt.Fprintf(w, " %10s\n", "unknown")
		for _, r := range s.orows {
			fmt.Fprintf(w, "%-28s %-38s", r.k.server, safe(r.k.kind))
			for i := range len(outcomeCols) + 1 {
				fmt.Fprintf(w, " %10d", r.n[i])
			}
			fmt.Fprintln(w)
		}
		if s.unknown() {
			fmt.Fprintln(w, "unknown: output before the outcome was known (too many records held back, or a connection open past the hold window); -2 tells.")
		}
	}
	fmt.Fprint(w, rule)
}

func (*serversStat) Reads() Reads { return Reads{Records: true, Trees: true} }
func (*rttStat) Reads() Reads     { return Reads{Records: true, Trees: true} }

// addJoined counts a player who joined the game, once per name, and
// keeps the name with its UUID when one came with it.
func (r *serverRow) addJoined(name, id string) {
	if name == "" || r.joinedSeen[name] {
		return
	}
	if r.joinedSeen == nil {
		r.joinedSeen = map[string]bool{}
	}
	if len(r.joinedSeen) < maxClientsKept {
		r.joinedSeen[name] = true
	}
	r.joinedCount++
	if len(r.joined) < maxJoinedNames {
		if id != "" {
			name += " (" + id + ")"
		}
		r.joined = append(r.joined, name)
	}
}
