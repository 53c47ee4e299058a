package query

import (
	"bytes"

	"github.com/mcdissect/mcdissect/dissect"
)

// Looks is the heuristic for UDP datagrams on ports not configured as Query:
// it reports whether data has the Query shape, and which direction it goes.
// It accepts only shapes that leave little room for chance:
//
//   - a request: FE FD, type 9 (handshake) or 0 (stat) and a session ID,
//     whatever follows: real clients pad (gamedig sends an 11-byte
//     handshake), and the decoder flags the extra bytes;
//   - a handshake response: 09, 4 session bytes, then an optional '-', 1 to
//     11 digits and a NUL that ends the datagram;
//   - a full stat response: 00, 4 session bytes, then "splitnum\0" — or a
//     split header of another name (Geyser's "GeyserMC\0") followed by a byte
//     with the 0x80 bit and 00, with "\x01player_\0" later in the datagram;
//   - a basic stat response: 00, 4 session bytes, five NUL-terminated
//     strings of which the 4th and 5th are decimal numbers, a 2-byte port
//     and a NUL-terminated hostip that ends the datagram (one extra 00
//     allowed: msh).
//
// Anything else (RakNet pings that Bedrock servers share the port with, DNS,
// QUIC...) is refused. It reads data only and allocates nothing.
func Looks(data []byte) (dissect.Dir, bool) {
	if len(data) >= 3 && data[0] == 0xFE && data[1] == 0xFD {
		if (data[2] == TypeHandshake || data[2] == TypeStat) && len(data) >= lenHandshakeRequest {
			return dissect.DirC2S, true
		}
		return dissect.DirUnknown, false
	}
	if len(data) < 7 {
		return dissect.DirUnknown, false
	}
	pl := data[5:]
	switch data[0] {
	case TypeHandshake:
		s := pl[:len(pl)-1]
		if pl[len(pl)-1] != 0 {
			return dissect.DirUnknown, false
		}
		if len(s) > 0 && s[0] == '-' {
			s = s[1:]
		}
		if len(s) == 0 || len(s) > 11 {
			return dissect.DirUnknown, false
		}
		for _, ch := range s {
			if ch < '0' || ch > '9' {
				return dissect.DirUnknown, false
			}
		}
		return dissect.DirS2C, true
	case TypeStat:
		if bytes.HasPrefix(pl, splitHeader[:9]) {
			return dissect.DirS2C, true
		}
		if n := bytes.IndexByte(pl, 0); n > 0 && n <= 32 && n+2 < len(pl) && pl[n+1]&0x80 != 0 && pl[n+2] == 0 &&
			bytes.Contains(pl[n+3:], playerSection) {
			return dissect.DirS2C, true
		}
		// The MOTD may hold NULs (see motdEnd): try the first 64.
		for i, tries := -1, 0; tries < 64; tries++ {
			j := bytes.IndexByte(pl[i+1:], 0)
			if j < 0 {
				break
			}
			i += 1 + j
			if basicShape(pl[i+1:], true) {
				return dissect.DirS2C, true
			}
		}
	}
	return dissect.DirUnknown, false
}
