package mcgen

import (
	"encoding/binary"
	"net/netip"
)

// javaServer is a Java Edition server answering Query and SLP: its players
// come and go as the capture runs.
type javaServer struct {
	v4, v6  netip.Addr
	motd    string // plain, for Query
	slpMotd string // with § codes, for SLP's JSON (already JSON-escaped)
	plugins string
	max     int
	favicon int // index in assets, -1: none
	names   [][]byte
}

func (s *javaServer) addPlayer(r *rng) {
	if len(s.names) < s.max {
		s.names = append(s.names, appendName(nil, r))
	}
}

// churn lets a player leave or join now and then.
func (s *javaServer) churn(r *rng) {
	switch r.intn(8) {
	case 0:
		s.addPlayer(r)
	case 1:
		if n := len(s.names); n > 0 {
			i := r.intn(n)
			s.names[i] = s.names[n-1]
			s.names = s.names[:n-1]
		}
	}
}

// queryActor is one Query client: a handshake, then one to four stat
// requests with the token, each answered.
type queryActor struct {
	g      *gen
	srv    *javaServer
	cl, sv netip.AddrPort
	sid    uint32
	token  uint32
	state  int
	rounds int
	full   bool
	buf    []byte
}

func (q *queryActor) proto() int { return Query }

func (q *queryActor) init(g *gen) int {
	q.g = g
	q.cl = g.client(false)
	q.srv, q.sv = g.javaFor(q.cl)
	q.srv.churn(&g.r)
	q.sid = uint32(g.r.next()) & 0x0F0F0F0F
	q.token = uint32(g.r.intn(1 << 24))
	q.state = 0
	q.rounds = g.r.between(1, 4)
	g.st.QuerySessions++
	// planned bytes: 4 packets of headers, requests, a response
	resp := 60 + len(q.srv.motd)
	if g.r.intn(2) == 0 {
		resp = 200 + len(q.srv.plugins) + len(q.srv.names)*11
	}
	return (2+2*q.rounds)*(16+14+28) + 20 + q.rounds*(15+resp)
}

func (q *queryActor) step() bool {
	r := &q.g.r
	b := q.buf[:0]
	switch q.state {
	case 0: // handshake request
		b = append(b, 0xfe, 0xfd, 9)
		b = binary.BigEndian.AppendUint32(b, q.sid)
		q.g.udp(q.cl, q.sv, b)
	case 1: // handshake response: the token in decimal
		b = append(b, 9)
		b = binary.BigEndian.AppendUint32(b, q.sid)
		b = appendUint(b, uint64(q.token))
		b = append(b, 0)
		q.g.udp(q.sv, q.cl, b)
	case 2: // stat request
		q.full = r.intn(2) == 0
		b = append(b, 0xfe, 0xfd, 0)
		b = binary.BigEndian.AppendUint32(b, q.sid)
		b = binary.BigEndian.AppendUint32(b, q.token)
		if q.full {
			b = append(b, 0, 0, 0, 0)
		}
		q.g.udp(q.cl, q.sv, b)
	case 3:
		if q.full {
			b = q.fullStat(b)
		} else {
			b = q.basicStat(b)
		}
		q.g.udp(q.sv, q.cl, b)
	}
	q.buf = b
	q.state++
	if q.state == 4 {
		q.rounds--
		if q.rounds == 0 {
			return true
		}
		q.state = 2
	}
	return false
}

// finish answers a request still waiting for its response.
func (q *queryActor) finish() {
	if q.state == 1 || q.state == 3 {
		q.step()
	}
}

func (q *queryActor) hostIP(b []byte) []byte { return q.sv.Addr().AppendTo(b) }

func (q *queryActor) basicStat(b []byte) []byte {
	s := q.srv
	b = append(b, 0)
	b = binary.BigEndian.AppendUint32(b, q.sid)
	b = append(b, s.motd...)
	b = append(b, 0)
	b = append(b, "SMP\x00world\x00"...)
	b = appendUint(b, uint64(len(s.names)))
	b = append(b, 0)
	b = appendUint(b, uint64(s.max))
	b = append(b, 0)
	b = binary.LittleEndian.AppendUint16(b, 25565)
	b = q.hostIP(b)
	return append(b, 0)
}

func (q *queryActor) fullStat(b []byte) []byte {
	s := q.srv
	b = append(b, 0)
	b = binary.BigEndian.AppendUint32(b, q.sid)
	b = append(b, "splitnum\x00\x80\x00"...)
	b = append(b, "hostname\x00"...)
	b = append(b, s.motd...)
	b = append(b, "\x00gametype\x00SMP\x00game_id\x00MINECRAFT\x00version\x001.21.1\x00plugins\x00"...)
	b = append(b, s.plugins...)
	b = append(b, "\x00map\x00world\x00numplayers\x00"...)
	b = appendUint(b, uint64(len(s.names)))
	b = append(b, "\x00maxplayers\x00"...)
	b = appendUint(b, uint64(s.max))
	b = append(b, "\x00hostport\x0025565\x00hostip\x00"...)
	b = q.hostIP(b)
	b = append(b, 0, 0) // end of the value, empty key
	b = append(b, "\x01player_\x00\x00"...)
	for _, n := range s.names {
		b = append(b, n...)
		b = append(b, 0)
	}
	return append(b, 0)
}

// slpActor is one Server List Ping connection: a status query (handshake,
// status request, status response, usually a ping and its pong) or, one
// time in five, a login up to the end of the configuration state with
// compression on.
type slpActor struct {
	flow
	srv     *javaServer
	sv      netip.AddrPort
	login   bool
	ping    bool
	state   int
	name    []byte
	uuid    [16]byte
	pingVal uint64
	body    []byte
	// the play state (Config.Play): bursts left, the player's position
	bursts     int
	px, py, pz float64
}

func (s *slpActor) proto() int { return SLP }

func (s *slpActor) init(g *gen) int {
	cl := g.client(false)
	s.srv, s.sv = g.javaFor(cl)
	s.srv.churn(&g.r)
	s.open(g, cl, s.sv)
	s.state = 0
	s.login = g.r.intn(5) == 0 || g.cfg.Play
	s.ping = g.r.permille(850)
	if g.cfg.Play {
		g.st.SLPLogin++
		s.name = appendName(s.name[:0], &g.r)
		fillUUID(&s.uuid, &g.r)
		s.bursts = 100 + g.r.intn(700)
		s.px, s.py, s.pz = float64(g.r.intn(2000)-1000)+0.5, 64, float64(g.r.intn(2000)-1000)+0.5
		n := 0
		for _, c := range g.a.config {
			n += len(c)
		}
		// the first chunks, then per burst: a new chunk one time in 20,
		// some 60 bytes otherwise
		return 22*70 + 400 + n + (10+s.bursts/20)*len(g.a.chunks[0]) + s.bursts*60
	}
	if s.login {
		g.st.SLPLogin++
		s.name = appendName(s.name[:0], &g.r)
		fillUUID(&s.uuid, &g.r)
		n := 0
		for _, c := range g.a.config {
			n += len(c)
		}
		return 22*70 + 400 + n
	}
	g.st.SLPStatus++
	n := 14*70 + 250 + len(s.srv.names)*50
	if s.srv.favicon >= 0 {
		n += len(g.a.favicons[s.srv.favicon])
	}
	return n
}

func (s *slpActor) appendHandshake(b []byte, next int) []byte {
	var body [300]byte
	h := append(body[:0], 0x00)
	h = appendVarInt(h, 767)
	host := "mc.example.net"
	if s.g.r.intn(3) == 0 {
		host = "play.blockville.example"
	}
	h = appendString(h, host)
	h = binary.BigEndian.AppendUint16(h, s.sv.Port())
	h = appendVarInt(h, next)
	b = appendVarInt(b, len(h))
	return append(b, h...)
}

func (s *slpActor) step() bool {
	s.begin()
	defer s.end()
	if s.state >= 20 {
		return s.playStep()
	}
	r := &s.g.r
	c, sv := &s.pend[0], &s.pend[1]
	switch s.state {
	case 0:
		s.handshake()
		s.wait(r.between(50, 400))
		if s.login {
			*c = s.appendHandshake(*c, 2)
			*c = s.appendLoginStart(*c)
			s.emit(0, false)
			s.state = 10
			return false
		}
		*c = s.appendHandshake(*c, 1)
		if r.intn(3) > 0 { // status request in the same write
			*c = append(*c, 0x01, 0x00)
			s.state = 2
		} else {
			s.state = 1
		}
		s.emit(0, false)
	case 1:
		*c = append(*c, 0x01, 0x00)
		s.emit(0, false)
		s.state = 2
	case 2:
		*sv = s.appendStatus(*sv)
		s.emit(1, false)
		s.state = 3
		if !s.ping {
			s.state = 5
		}
	case 3:
		*c = append(*c, 0x09, 0x01)
		s.pingVal = uint64(s.c.now() / 1000) // epoch milliseconds, as clients send
		*c = binary.BigEndian.AppendUint64(*c, s.pingVal)
		s.emit(0, false)
		s.state = 4
	case 4: // pong echoes the ping's payload
		*sv = append(*sv, 0x09, 0x01)
		*sv = binary.BigEndian.AppendUint64(*sv, s.pingVal)
		s.emit(1, false)
		s.state = 5
	case 5, 17:
		s.flow.finish()
		return true
	case 10: // Set Compression, then Login Success in the compressed format
		*sv = append(*sv, 0x03, 0x03)
		*sv = appendVarInt(*sv, compressionThreshold)
		p := append(s.body[:0], 0x02)
		p = append(p, s.uuid[:]...)
		p = appendVarInt(p, len(s.name))
		p = append(p, s.name...)
		p = append(p, 0, 0) // no properties; strict error handling off
		*sv = plainFrame(*sv, p)
		s.body = p
		s.emit(1, false)
		s.state = 11
	case 11: // Login Acknowledged, Client Information, brand
		*c = plainFrame(*c, loginAck)
		*c = plainFrame(*c, clientInfo)
		*c = plainFrame(*c, clientBrand)
		s.emit(0, false)
		s.state = 12
	case 12: // brand, feature flags, known packs
		*sv = plainFrame(*sv, serverBrand)
		*sv = plainFrame(*sv, featureFlags)
		*sv = plainFrame(*sv, knownPacksS)
		s.emit(1, false)
		s.state = 13
	case 13:
		*c = plainFrame(*c, knownPacksC)
		s.emit(0, false)
		s.state = 14
	case 14: // registry data (compressed when large), finish configuration
		for _, f := range s.g.a.config {
			*sv = append(*sv, f...)
		}
		*sv = plainFrame(*sv, finishConfig)
		s.emit(1, false)
		s.state = 15
	case 15: // acknowledge finish configuration
		*c = plainFrame(*c, ackFinishConfig)
		s.emit(0, false)
		s.state = 17
		if s.g.cfg.Play {
			s.state = 20
		}
	}
	return false
}

// finish runs the conversation to its end: a few bursts at most.
func (s *slpActor) finish() {
	s.bursts = 0 // a play session leaves at its next burst
	for !s.step() {
		s.g.advance()
	}
}

// Bodies (packet ID and data) of the configuration state, 1.21.1.
var (
	loginAck        = []byte{0x03}
	clientInfo      = []byte("\x00\x05en_us\x0c\x00\x01\x7f\x01\x00\x01")
	clientBrand     = []byte("\x02\x0fminecraft:brand\x07vanilla")
	serverBrand     = []byte("\x01\x0fminecraft:brand\x07vanilla")
	featureFlags    = []byte("\x0c\x01\x11minecraft:vanilla")
	knownPacksS     = []byte("\x0e\x01\x09minecraft\x04core\x061.21.1")
	knownPacksC     = []byte("\x07\x01\x09minecraft\x04core\x061.21.1")
	finishConfig    = []byte{0x03}
	ackFinishConfig = []byte{0x03}
)

// appendStatus appends the Status Response frame: packet 0x00 and the JSON
// string, framed by VarInt lengths. The JSON is built in s.body.
func (s *slpActor) appendStatus(b []byte) []byte {
	r := &s.g.r
	srv := s.srv
	j := append(s.body[:0], `{"version":{"name":"1.21.1","protocol":767},"players":{"max":`...)
	j = appendUint(j, uint64(srv.max))
	j = append(j, `,"online":`...)
	j = appendUint(j, uint64(len(srv.names)))
	if n := min(len(srv.names), 12); n > 0 { // vanilla samples at most 12
		j = append(j, `,"sample":[`...)
		first := r.intn(len(srv.names))
		for i := range n {
			if i > 0 {
				j = append(j, ',')
			}
			j = append(j, `{"name":"`...)
			j = append(j, srv.names[(first+i)%len(srv.names)]...)
			j = append(j, `","id":"`...)
			j = appendUUIDText(j, r)
			j = append(j, `"}`...)
		}
		j = append(j, ']')
	}
	j = append(j, `},"description":{"text":"`...)
	j = append(j, srv.slpMotd...)
	j = append(j, `"}`...)
	if srv.favicon >= 0 {
		j = append(j, `,"favicon":"`...)
		j = append(j, s.g.a.favicons[srv.favicon]...)
		j = append(j, '"')
	}
	j = append(j, `,"enforcesSecureChat":false}`...)
	s.body = j
	n := 1 + varIntLen(len(j)) + len(j)
	b = appendVarInt(b, n)
	b = append(b, 0x00)
	b = appendVarInt(b, len(j))
	return append(b, j...)
}

func (s *slpActor) appendLoginStart(b []byte) []byte {
	n := 1 + varIntLen(len(s.name)) + len(s.name) + 16
	b = appendVarInt(b, n)
	b = append(b, 0x00)
	b = appendVarInt(b, len(s.name))
	b = append(b, s.name...)
	return append(b, s.uuid[:]...)
}
