package analyze

// midwayReason is the reason given for the bytes of a stream picked up
// mid-way in which no PDU boundary was found (what), with the hints of the
// protocols of the stream's port: what would still decode them
// (protocols.Protocol's MidwayHint), as Wireshark's expert items name the
// preference to try. Port 25565 is Classic's and Java's: Java's hint
// shows whichever protocol the bytes are reported as.
func (h *tcpConn) midwayReason(what string) string {
	r := "capture starts mid-stream: " + what
	for _, c := range h.cands {
		if !c.byPort || c.p.MidwayHint == nil {
			continue
		}
		if hint := c.p.MidwayHint(h.t.a.run); hint != "" {
			r += " (" + hint + ")"
		}
	}
	return r
}
