package stats

import (
	"encoding/json"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// exchangesStat is -z mc,exchanges (a table) and -z mc,exchanges,json
// (JSON lines): one row per exchange or session, as Zeek's conn log has
// one per connection: a request and its response (a Query handshake or
// stat, a status request, a ping, a legacy ping, a RakNet ping, a Classic
// heartbeat), or a session (a Java login, a Classic game), with who asked
// whom, what, how it ended, how long it took, the bytes each way, the
// version and the player where there is one.
//
// Rows are made from the records shown (-Y narrows them), in order of
// their first record. A response finds its request by its link
// (RoleRequestIn: query.request_in, slp.request_in, slp.ping.request_in),
// else, where the protocol has none (RakNet, the heartbeat's HTTP), as
// the oldest request of its kind still open in the conversation. How a
// request ended comes from its records (exchangeOutcome) and, for one
// never answered, from the conversation: bytes the capture lost in the
// server's direction after it make it "lost" (the response may be among
// them), else it is "unanswered".
type exchangesStat struct {
	records
	json bool
	x    *Exchanges
}

// Exchanges works out the exchanges of the records it is given, in
// order: the rows of -z mc,exchanges, and the request/response diagram of
// the page (-T html).
type Exchanges struct {
	rows   []*Exchange
	others int // records of exchanges past maxStatRows, not listed
	n      int // records given

	// Open state, bounded by the rows: a TCP stream's, a UDP
	// conversation's (client and server).
	tcp map[int]*exConv
	udp map[[2]netip.AddrPort]*exConv
}

// NewExchanges makes an empty tracker.
func NewExchanges() *Exchanges {
	return &Exchanges{tcp: map[int]*exConv{}, udp: map[[2]netip.AddrPort]*exConv{}}
}

// Exchange is one row.
type Exchange struct {
	Frame          uint64 // its first record's frame
	Time           time.Time
	Rel            time.Duration
	Client, Server netip.AddrPort
	Proto          string // the registration's column: SLP, Query...
	Stream         int    // tcp.stream, -1 for UDP
	Asked          string
	Outcome        string
	Reason         string // a refusal's or a disconnect's text
	ResponseFrame  uint64
	Duration       time.Duration
	C2S, S2C       int // bytes of the exchange's records each way
	Version        string
	ProtoVersion   int64
	hasProtoVer    bool
	Player         string

	// Request and Response are the indexes, among the records given to
	// Exchanges.Record, of the request (the first record of a session)
	// and of the response; -1 for none.
	Request, Response int

	kind     string // the request kind a response must match (asked)
	reqFrame uint64 // the request's frame (Frame may be the handshake's before it)
	session  bool   // a session: every later record of the stream is part of it
	lostAt   bool   // the server's direction lost bytes after the request
	done     bool   // answered (or ended): later records do not change its outcome
}

// exConv is what a conversation has open.
type exConv struct {
	open     []*Exchange // requests waiting for their response, oldest first
	session  *Exchange   // the stream's session, once one started
	hsFirst  time.Time   // the SLP handshake waiting for the request it introduces
	hsBytes  int
	hsFrame  uint64
	hsRel    time.Duration
	hsVer    int64
	hsHasVer bool
}

func newExchangesStat(json bool) *exchangesStat {
	return &exchangesStat{json: json, x: NewExchanges()}
}

func (s *exchangesStat) Record(r *record.Record) { s.x.Record(r) }

func (*exchangesStat) Reads() Reads { return Reads{Records: true, Trees: true} }

// Outcomes of a row.
const (
	outAnswered     = "answered"
	outUnanswered   = "unanswered"
	outLost         = "lost"       // the capture lost bytes where the response would be
	outNoRequest    = "no request" // a response whose request the capture does not hold
	outLoggedIn     = "logged in"
	outDisconnected = "disconnected"
	outEncrypted    = "encrypted" // the login went on encrypted: its end is not readable
	outJoined       = "joined"
	outKicked       = "kicked"
	outMidStream    = "mid-stream" // a session the capture joined after it started
)

// exchangeKind says what a protocol's message is to this statistic: the
// request of an exchange (what it asks), the response that ends one, or
// a step of a session. Keyed by protocol (mc.protocol) and message; a
// message whose name starts with a key's ends in "*" matches by prefix.
type exchangeKind struct {
	request, response string // the kind asked, or answered
	session           string // starts a session: what it is
	outcome           string // a session event: the session's outcome from here
	handshake         bool   // an SLP handshake: it belongs to the request after it
}

var exchangeKinds = map[[2]string]exchangeKind{
	{"query", "Handshake Request"}:       {request: "handshake"},
	{"query", "Handshake Response"}:      {response: "handshake"},
	{"query", "Basic Stat Request"}:      {request: "basic stat"},
	{"query", "Basic Stat Response"}:     {response: "basic stat"},
	{"query", "Full Stat Request"}:       {request: "full stat"},
	{"query", "Full Stat Response"}:      {response: "full stat"},
	{"query", "Stat Request"}:            {request: "stat"},
	{"slp", "Handshake"}:                 {handshake: true},
	{"slp", "Status Request"}:            {request: "status"},
	{"slp", "Status Response"}:           {response: "status"},
	{"slp", "Ping Request"}:              {request: "ping"},
	{"slp", "Pong Response"}:             {response: "ping"},
	{"slp", "Legacy Kick"}:               {response: "legacy ping"},
	{"slp", "Login Start"}:               {session: "login"},
	{"slp", "Login Success"}:             {outcome: outLoggedIn},
	{"slp", "Disconnect (login)"}:        {outcome: outDisconnected},
	{"slp", "Encryption Response"}:       {outcome: outEncrypted},
	{"slp", "Disconnect"}:                {outcome: outKicked}, // in play or configuration
	{"raknet", "Unconnected Ping"}:       {request: "RakNet ping"},
	{"raknet", "Unconnected Pong"}:       {response: "RakNet ping"},
	{"classic", "Heartbeat"}:             {request: "heartbeat"},
	{"classic", "Heartbeat Response"}:    {response: "heartbeat"},
	{"classic", "Player Identification"}: {session: "Classic session"},
	{"classic", "Server Identification"}: {outcome: outJoined},
	{"classic", "Disconnect Player"}:     {outcome: outKicked},
}

// exchangePrefixes are the messages matched by the start of their name:
// the legacy pings say which versions send them.
var exchangePrefixes = []struct {
	proto, prefix string
	kind          exchangeKind
}{
	{"slp", "Legacy Server List Ping", exchangeKind{request: "legacy ping"}},
}

// kindOf is r's entry in exchangeKinds or exchangePrefixes.
func kindOf(r *record.Record) (exchangeKind, bool) {
	if k, ok := exchangeKinds[[2]string{r.Proto, r.PDU.Message}]; ok {
		return k, true
	}
	for _, p := range exchangePrefixes {
		if p.proto == r.Proto && strings.HasPrefix(r.PDU.Message, p.prefix) {
			return p.kind, true
		}
	}
	return exchangeKind{}, false
}

// exchangeOutcome is how r says its request ended (mc.outcome: issue 29's
// outcomes as data), "" when it does not say or says answered (the
// response's link says that, with its frame).
func exchangeOutcome(r *record.Record) string {
	if i := r.PDU.Find("mc.outcome"); i >= 0 {
		if o := r.PDU.Nodes[i].Value.View(); o != outAnswered {
			return o
		}
	}
	return ""
}

// requestLink is the frame of the request a response links back to.
func requestLink(r *record.Record) (uint64, bool) {
	for i := range r.PDU.Nodes {
		if n := &r.PDU.Nodes[i]; n.Field.Role == dissect.RoleRequestIn {
			return n.Value.N, true
		}
	}
	return 0, false
}

func (s *Exchanges) conv(r *record.Record, client, server netip.AddrPort) *exConv {
	if r.TCP {
		c := s.tcp[r.Stream]
		if c == nil {
			if len(s.rows) >= maxStatRows {
				return nil
			}
			c = &exConv{}
			s.tcp[r.Stream] = c
		}
		return c
	}
	k := [2]netip.AddrPort{client, server}
	c := s.udp[k]
	if c == nil {
		if len(s.rows) >= maxStatRows {
			return nil
		}
		c = &exConv{}
		s.udp[k] = c
	}
	return c
}

// Record takes the next record.
func (s *Exchanges) Record(r *record.Record) {
	idx := s.n
	s.n++
	server, client, ok := serverSide(r)
	if !ok || r.Kind == record.KindNote || r.Kind == record.KindConflict || protocols.OfRecord(r.Proto) == nil {
		return
	}
	c := s.conv(r, client, server)
	if c == nil {
		s.others++ // past the table's rows: counted, not listed
		return
	}
	fromClient := r.PDU.Dir == dissect.DirC2S
	size := len(r.PDU.OwnBytes()) + r.GapLength
	if r.Kind == record.KindGap && !fromClient {
		for _, e := range c.open {
			e.lostAt = true
		}
	}
	k, known := kindOf(r)
	if r.Kind != record.KindPDU {
		known = false
	}
	// A session takes every record of its stream.
	if c.session != nil {
		e := c.session
		e.addBytes(fromClient, size)
		e.Duration = r.Time.Sub(e.Time)
		if !fromClient && r.Kind == record.KindPDU && e.Outcome == outUnanswered {
			e.Outcome = "in progress"
		}
		// The session's latest event says how it stands.
		if r.Kind == record.KindPDU && hasRole(r, dissect.RolePlayerJoined) {
			e.Outcome = outJoined
		}
		if known && k.outcome != "" {
			e.Outcome = k.outcome
			if k.outcome == outDisconnected || k.outcome == outKicked {
				e.Reason = fieldByRole(r, dissect.RoleReason)
				if e.Reason == "" {
					e.Reason = fieldByRole(r, dissect.RoleText)
				}
			}
		}
		e.readVersion(r)
		e.readPlayer(r, fromClient)
		return
	}
	switch {
	case known && k.handshake && fromClient:
		c.hsFrame, c.hsFirst, c.hsRel, c.hsBytes = r.Frame, r.Time, r.Rel, size
		c.hsVer, c.hsHasVer = roleInt(r, dissect.RoleProtocolVersion)
		return
	case known && k.request != "" && fromClient:
		e := s.newRow(idx, r, client, server, k.request, c)
		e.addBytes(true, size)
		if o := exchangeOutcome(r); o != "" {
			e.Outcome = o
		}
		c.open = append(c.open, e)
		return
	case known && k.session != "" && fromClient:
		e := s.newRow(idx, r, client, server, k.session, c)
		e.session = true
		e.addBytes(true, size)
		e.readPlayer(r, true)
		c.session = e
		return
	case known && k.response != "" && !fromClient:
		e := c.take(r, k.response)
		if e == nil {
			e = s.newRow(idx, r, client, server, k.response, c)
			e.Outcome = outNoRequest
			e.ResponseFrame, e.Response = r.Frame, idx
			e.addBytes(false, size)
			e.readVersion(r)
			e.done = true
			return
		}
		e.Outcome, e.ResponseFrame, e.Response, e.done = outAnswered, r.Frame, idx, true
		e.Duration = r.Time.Sub(e.Time)
		e.addBytes(false, size)
		e.readVersion(r)
		return
	}
	// A stream of a Minecraft protocol whose start the capture missed, or
	// a server that speaks first: a session from here.
	if r.TCP && r.Kind != record.KindGap && len(c.open) == 0 && protocols.OfRecord(r.Proto) != nil {
		e := s.newRow(idx, r, client, server, "session", c)
		e.session, e.Outcome = true, outMidStream
		e.addBytes(fromClient, size)
		e.readVersion(r)
		e.readPlayer(r, fromClient)
		if known && k.outcome != "" {
			e.Outcome = k.outcome
		}
		c.session = e
		return
	}
	// Bytes between a request and its response (an undissected range, a
	// packet of no exchange): the newest open request's.
	if n := len(c.open); n > 0 {
		c.open[n-1].addBytes(fromClient, size)
	}
}

// newRow starts a row at r. A pending SLP handshake of the conversation
// belongs to it: its frame, time and bytes, and the client's protocol.
func (s *Exchanges) newRow(idx int, r *record.Record, client, server netip.AddrPort, asked string, c *exConv) *Exchange {
	e := &Exchange{Frame: r.Frame, Time: r.Time, Rel: r.Rel, Client: client, Server: server,
		Proto: protocols.Column(r.Proto), Stream: -1, Asked: asked, kind: asked, reqFrame: r.Frame, Request: idx, Response: -1, Outcome: outUnanswered}
	if r.TCP {
		e.Stream = r.Stream
	}
	if c.hsFrame != 0 {
		e.Frame, e.Time, e.Rel = c.hsFrame, c.hsFirst, c.hsRel
		e.C2S += c.hsBytes
		e.ProtoVersion, e.hasProtoVer = c.hsVer, c.hsHasVer
		c.hsFrame = 0
	}
	if v, ok := roleInt(r, dissect.RoleProtocolVersion); ok {
		e.ProtoVersion, e.hasProtoVer = v, true
	}
	s.rows = append(s.rows, e)
	return e
}

// take removes and returns the open request r answers: the one it links
// to, else the oldest of its kind.
func (c *exConv) take(r *record.Record, kind string) *Exchange {
	at := -1
	if f, ok := requestLink(r); ok {
		for i, e := range c.open {
			if e.reqFrame == f {
				at = i
				break
			}
		}
	} else {
		for i, e := range c.open {
			if e.kind == kind {
				at = i
				break
			}
		}
	}
	if at < 0 {
		return nil
	}
	e := c.open[at]
	c.open = append(c.open[:at], c.open[at+1:]...)
	return e
}

func (e *Exchange) addBytes(c2s bool, n int) {
	if c2s {
		e.C2S += n
	} else {
		e.S2C += n
	}
}

// readVersion takes the server's version name and protocol from r, where
// the server says them.
func (e *Exchange) readVersion(r *record.Record) {
	if r.PDU.Dir != dissect.DirS2C {
		return
	}
	if v := fieldByRole(r, dissect.RoleVersion); v != "" {
		e.Version = v
	}
	if v, ok := roleInt(r, dissect.RoleProtocolVersion); ok {
		e.ProtoVersion, e.hasProtoVer = v, true
	}
}

func (e *Exchange) readPlayer(r *record.Record, fromClient bool) {
	if !fromClient || e.Player != "" {
		return
	}
	e.Player = fieldByRole(r, dissect.RolePlayerName)
}

func hasRole(r *record.Record, role dissect.Role) bool {
	for i := range r.PDU.Nodes {
		if r.PDU.Nodes[i].Field.Role == role {
			return true
		}
	}
	return false
}

// fieldByRole is the text of r's first node of the role, "" if none.
func fieldByRole(r *record.Record, role dissect.Role) string {
	for i := range r.PDU.Nodes {
		if n := &r.PDU.Nodes[i]; n.Field.Role == role {
			return plainText(n)
		}
	}
	return ""
}

func roleInt(r *record.Record, role dissect.Role) (int64, bool) {
	for i := range r.PDU.Nodes {
		if n := &r.PDU.Nodes[i]; n.Field.Role == role {
			return intValue(n), true
		}
	}
	return 0, false
}

// finish settles the rows still open at the end: a request never
// answered is lost when the server's direction lost bytes after it.
// Rows are the exchanges, in order of their first record, settled as if
// no record followed.
func (s *Exchanges) Rows() []*Exchange {
	s.finish()
	return s.rows
}

func (s *Exchanges) finish() {
	for _, e := range s.rows {
		if !e.done && !e.session && e.Outcome == outUnanswered && e.lostAt {
			e.Outcome = outLost
		}
	}
}

// Took is how long the exchange took: from its request to its response,
// or the session's span; false when it was not answered.
func (e *Exchange) Took() (time.Duration, bool) {
	return e.Duration, e.Outcome == outAnswered || e.session
}

// versionText is the row's version: "1.21.1 (767)", "1.21.1", "protocol 47".
func (e *Exchange) versionText() string {
	switch {
	case e.Version != "" && e.hasProtoVer:
		return e.Version + " (" + strconv.FormatInt(e.ProtoVersion, 10) + ")"
	case e.Version != "":
		return e.Version
	case e.hasProtoVer:
		return "protocol " + strconv.FormatInt(e.ProtoVersion, 10)
	}
	return ""
}

func (s *exchangesStat) Print(w io.Writer) {
	rows := s.x.Rows()
	if s.json {
		s.printJSON(w, rows)
		return
	}
	fmt.Fprint(w, rule, "Minecraft exchanges\n", rule)
	fmt.Fprintf(w, "%7s %-21s %-21s %-7s %-15s %-12s %10s %8s %8s  %-16s %s\n",
		"Frame", "Client", "Server", "Proto", "Asked", "Outcome", "Duration", "C→S", "S→C", "Version", "Player")
	for _, e := range rows {
		dur := ""
		if d, ok := e.Took(); ok {
			dur = strconv.FormatFloat(d.Seconds(), 'f', 6, 64)
		}
		outcome := e.Outcome
		if e.Reason != "" {
			outcome += ": " + e.Reason
		}
		line := fmt.Sprintf("%7d %-21s %-21s %-7s %-15s %-12s %10s %8d %8d  %-16s %s",
			e.Frame, e.Client, e.Server, e.Proto, e.Asked, safe(outcome), dur, e.C2S, e.S2C, safe(e.versionText()), safe(e.Player))
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	if s.x.others > 0 {
		fmt.Fprintf(w, "[%d records of exchanges past the table's %d rows are not listed]\n", s.x.others, maxStatRows)
	}
	fmt.Fprint(w, rule)
}

// printJSON writes one JSON object a line, for ingestion: the row's
// columns with their types, times in RFC 3339 UTC and seconds.
func (s *exchangesStat) printJSON(w io.Writer, rows []*Exchange) {
	var b []byte
	for _, e := range rows {
		b = append(b[:0], `{"frame":`...)
		b = strconv.AppendUint(b, e.Frame, 10)
		b = append(b, `,"time":"`...)
		b = e.Time.UTC().AppendFormat(b, "2006-01-02T15:04:05.000000000Z")
		b = append(b, `","rel":`...)
		b = strconv.AppendFloat(b, e.Rel.Seconds(), 'f', 9, 64)
		b = append(b, `,"client":`...)
		b = appendJSONStr(b, e.Client.String())
		b = append(b, `,"server":`...)
		b = appendJSONStr(b, e.Server.String())
		b = append(b, `,"protocol":`...)
		b = appendJSONStr(b, e.Proto)
		if e.Stream >= 0 {
			b = append(b, `,"transport":"tcp","stream":`...)
			b = strconv.AppendInt(b, int64(e.Stream), 10)
		} else {
			b = append(b, `,"transport":"udp"`...)
		}
		b = append(b, `,"asked":`...)
		b = appendJSONStr(b, e.Asked)
		b = append(b, `,"outcome":`...)
		b = appendJSONStr(b, e.Outcome)
		if e.Reason != "" {
			b = append(b, `,"reason":`...)
			b = appendJSONStr(b, e.Reason)
		}
		if e.ResponseFrame != 0 {
			b = append(b, `,"response_frame":`...)
			b = strconv.AppendUint(b, e.ResponseFrame, 10)
		}
		if d, ok := e.Took(); ok {
			b = append(b, `,"duration":`...)
			b = strconv.AppendFloat(b, d.Seconds(), 'f', 9, 64)
		}
		b = append(b, `,"bytes_c2s":`...)
		b = strconv.AppendInt(b, int64(e.C2S), 10)
		b = append(b, `,"bytes_s2c":`...)
		b = strconv.AppendInt(b, int64(e.S2C), 10)
		if e.Version != "" {
			b = append(b, `,"version":`...)
			b = appendJSONStr(b, e.Version)
		}
		if e.hasProtoVer {
			b = append(b, `,"protocol_version":`...)
			b = strconv.AppendInt(b, e.ProtoVersion, 10)
		}
		if e.Player != "" {
			b = append(b, `,"player":`...)
			b = appendJSONStr(b, e.Player)
		}
		b = append(b, "}\n"...)
		w.Write(b)
	}
	if s.x.others > 0 {
		fmt.Fprintf(w, `{"others":%d,"note":"records of exchanges past the table's %d rows are not listed"}`+"\n", s.x.others, maxStatRows)
	}
}

func appendJSONStr(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}
