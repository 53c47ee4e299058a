package query

import (
	"bytes"
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
)

// The keys Minecraft servers send in the full stat, in vanilla's order.
const (
	keyHostname = iota
	keyGametype
	keyGameID
	keyVersion
	keyPlugins
	keyMap
	keyNumPlayers
	keyMaxPlayers
	keyHostPort
	keyHostIP
	numKeys
)

var keyNames = [numKeys]string{"hostname", "gametype", "game_id", "version", "plugins", "map", "numplayers", "maxplayers", "hostport", "hostip"}

// The plain field each well-known key's value is shown as.
var keyFields = [numKeys]*dissect.Field{fMOTD, fGametype, fGameID, fVersion, fPlugins, fMap, fNumPlayers, fMaxPlayers, fHostPortText, fHostIP}

// knownKey returns the index of a well-known key, or -1. The switch on
// string(b) does not allocate.
func knownKey(b []byte) int {
	switch string(b) {
	case "hostname":
		return keyHostname
	case "gametype":
		return keyGametype
	case "game_id":
		return keyGameID
	case "version":
		return keyVersion
	case "plugins":
		return keyPlugins
	case "map":
		return keyMap
	case "numplayers":
		return keyNumPlayers
	case "maxplayers":
		return keyMaxPlayers
	case "hostport":
		return keyHostPort
	case "hostip":
		return keyHostIP
	}
	return -1
}

// keyName is the Key of a query.kv node, the last part of its filter name:
// the well-known keys are constants; any other key is copied with every byte
// outside [A-Za-z0-9_-] replaced by '_' and cut at 64 bytes, so that a hostile
// key can neither break a filter name nor reach a terminal through it. The
// query.key child keeps the bytes as sent.
func keyName(b []byte, k int) string {
	if k >= 0 {
		return keyNames[k]
	}
	b = b[:min(len(b), 64)]
	out := make([]byte, len(b))
	for i, ch := range b {
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '-' {
			out[i] = ch
		} else {
			out[i] = '_'
		}
	}
	return string(out)
}

// keyLike reports whether b looks like a GameSpy key: lowercase letters,
// digits and underscores, not empty.
func keyLike(b []byte) bool {
	if len(b) == 0 || len(b) > 32 {
		return false
	}
	for _, ch := range b {
		if !(ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '_') {
			return false
		}
	}
	return true
}

var playerSection = []byte("\x01player_\x00")

// fullState is what the full stat's parts tell each other.
type fullState struct {
	np, mx     uint64
	npOK, mxOK bool
	npNode     int32
	motd       []byte
	haveMOTD   bool
	seen       uint16     // bit k: well-known key k seen
	others     [16][]byte // unknown keys seen, for duplicates
	nOthers    int
}

func fullStat(c *dissect.Cursor, info *infoFacts) {
	p := c.P
	st := fullState{npNode: -1}

	// GameSpy3 split header: field name, packet number, one more byte.
	hs := c.Off()
	h := c.Open(fSplit, -1)
	key, _ := c.CString(fSplitKey)
	pkt, pi := c.Uint8(fSplitPacket)
	if pi >= 0 {
		p.AddGenerated(pi, fSplitLast, dissect.Bool(pkt&0x80 != 0), "")
		p.AddGenerated(pi, fSplitIndex, dissect.U(uint64(pkt&0x7f)), "")
	}
	extra, ei := c.Uint8(fSplitExtra)
	c.Close()
	if ei >= 0 && (string(key) != "splitnum" || pkt != 0x80 || extra != 0) {
		who := ""
		if string(key) == "GeyserMC" {
			who = " (Geyser's header)"
		}
		c.Expert(h, eSplit, "query.split at offset "+strconv.Itoa(hs)+": saw "+hex2(p.Data[hs:c.Off()])+" ("+quote(key)+" "+hex2([]byte{pkt, extra})+")"+who+", expected 73 70 6c 69 74 6e 75 6d 00 80 00 (\"splitnum\" 80 00)")
	}
	if pi >= 0 && pkt&0x80 == 0 {
		c.Expert(pi, eSplitMore, "query.split.packet at offset "+strconv.Itoa(hs+len(key)+1)+": 0x"+hex2([]byte{pkt})+" has no 0x80 bit: more packets follow, and are dissected one by one")
	}
	if c.Failed() {
		return
	}

	// Key/value section.
	ks := c.Open(fKVs, -1)
	pairs(c, &st, ks)
	c.Close()
	if c.Failed() {
		info.setPlayers(st.np, st.npOK, st.mx, st.mxOK)
		return
	}

	// Player section: section byte, field name, start byte, names, empty name.
	ps := c.Open(fPlayers, -1)
	hp := c.Off()
	sec, _ := c.Uint8(fPlayersSection)
	fname, _ := c.CString(fPlayersField)
	start, sti := c.Uint8(fPlayersStart)
	if sti >= 0 && (sec != 1 || string(fname) != "player_" || start != 0) {
		c.Expert(ps, ePlayersHdr, "query.players at offset "+strconv.Itoa(hp)+": saw "+hex2(p.Data[hp:c.Off()])+", expected 01 70 6c 61 79 65 72 5f 00 00 (01 \"player_\" 00)")
	}
	listed := uint64(c.CStrings(fPlayer, fPlayersEnd, "no empty name ends the player list", func(i int32, name []byte) { control(c, i, name) }))
	c.Close()
	if !c.Failed() {
		p.AddGenerated(ps, fPlayersCount, dissect.U(listed), "")
		if st.npOK && st.np != listed {
			c.Expert(st.npNode, eNumMismatch, "numplayers says "+strconv.FormatUint(st.np, 10)+" but the player list has "+strconv.FormatUint(listed, 10)+" names")
		}
	}
	info.setPlayers(st.np, st.npOK, st.mx, st.mxOK)
	if !c.Failed() && (!st.npOK || st.np != listed) {
		info.listed, info.nListed = true, listed
	}
	if st.haveMOTD {
		info.motd, info.motdText = true, st.motd
	}
}

// pairs dissects the key/value section.
//
// Where it ends: clients split the reply around "\0\x01player_\0\0", and so
// does this: the section runs up to the first "\x01player_\0" after the
// split header, its last byte being the empty key that ends it. Knowing the
// end first lets pairs see a MOTD with NUL bytes for what it is. When the
// marker is missing (a capture cut short, an odd server) the section is read
// naively, pair by pair, until an empty key.
//
// MOTDs with NUL bytes (Mojang bugs MC-221987 and MC-231035: characters
// beyond Latin-1 sent as their low byte, "\u0000" in server.properties) make
// a naive parser read the MOTD's pieces as keys and values, shifted by one
// string for every NUL. The heuristic: after the hostname key's value, the
// next string should be a well-known key. If it is not, look for the first
// later string that is a well-known key and after which the section holds an
// even number of strings (so the rest pairs up); the end of the section also
// counts. With an odd number of strings after hostname's value the
// alternation is certainly broken, so the MOTD is extended. With an even
// number it might be a server's own extra keys, so the MOTD is extended only
// if one of the strings in key position does not look like a key (empty,
// capitals, spaces, non-ASCII: MOTD pieces do; GameSpy keys are [a-z0-9_]).
// The MOTD node then covers its NUL bytes and carries query.motd.nul.
func pairs(c *dissect.Cursor, st *fullState, ks int32) {
	p := c.P
	off := c.Off()
	pl := p.Data[off:]
	sEnd, endByte := -1, false
	if sec := bytes.Index(pl, playerSection); sec == 0 {
		sEnd = off
	} else if sec > 0 && pl[sec-1] == 0 {
		if sec == 1 || pl[sec-2] == 0 {
			sEnd, endByte = off+sec-1, true
		} else {
			sEnd = off + sec
		}
	}
	if sEnd < 0 {
		naivePairs(c, st)
		return
	}
	total := bytes.Count(p.Data[off:sEnd], []byte{0})
	idx := 0 // strings consumed
	for c.Off() < sEnd && !c.Failed() {
		ko := c.Off()
		key := p.Data[ko : ko+bytes.IndexByte(p.Data[ko:sEnd], 0)]
		k := knownKey(key)
		kv := c.Open(fKV, -1)
		p.SetKey(kv, keyName(key, k))
		ki := c.Field(fKey, len(key)+1, dissect.B(key))
		idx++
		checkKey(c, st, ki, key, k, ko, sEnd, endByte)
		if c.Off() >= sEnd {
			c.Expert(kv, eKVOdd, "key "+quote(key)+" at offset "+strconv.Itoa(ko)+" has no value: the section holds "+strconv.Itoa(total)+" strings, an odd number")
			c.Close()
			break
		}
		vo := c.Off()
		vend := vo + bytes.IndexByte(p.Data[vo:sEnd], 0)
		nuls := 0
		if k == keyHostname && !st.haveMOTD && vend+1 < sEnd {
			if e, n := motdWithNULs(p.Data, vend+1, sEnd, idx+1, total); e >= 0 {
				vend, nuls = e, n
				idx += n
			}
		}
		idx++
		value := p.Data[vo:vend]
		vi := c.Field(keyField(k), vend-vo+1, dissect.B(value))
		p.SetValue(kv, dissect.B(value))
		if nuls > 0 {
			c.Expert(vi, eMOTDNul, "query.motd at offset "+strconv.Itoa(vo)+" holds "+nulBytes(nuls)+"; a naive parser reads its pieces as keys and values")
		}
		c.Close()
		wellKnown(c, st, k, vi, value, vo)
	}
	if endByte {
		c.Take(fKVEnd, 1)
	} else {
		c.Expert(ks, eKVNoEnd, "no empty key before the player section at offset "+strconv.Itoa(sEnd))
	}
}

// motdWithNULs applies the heuristic described at pairs to the strings from
// offset from (string index idx of total) to sEnd. It returns the offset of
// the NUL that really ends the MOTD and how many NULs the MOTD holds, or -1.
func motdWithNULs(data []byte, from, sEnd, idx, total int) (end, nuls int) {
	str := func(pos int) []byte { return data[pos : pos+bytes.IndexByte(data[pos:sEnd], 0)] }
	if knownKey(str(from)) >= 0 {
		return -1, 0
	}
	odd := (total-idx)%2 == 1
	notKey := false
	pos := from
	for i := idx; ; i++ {
		// Is string i (at pos) where the pairs really resume? The end of
		// the section (i == total) leaves zero strings: an even number.
		if i > idx && (pos >= sEnd || knownKey(str(pos)) >= 0 && (total-i)%2 == 0) {
			if !odd && !notKey {
				return -1, 0
			}
			return pos - 1, i - idx
		}
		s := str(pos)
		if (i-idx)%2 == 0 && !keyLike(s) {
			notKey = true // a naive parser would take s for a key
		}
		pos += len(s) + 1
	}
}

func keyField(k int) *dissect.Field {
	if k < 0 {
		return fValue
	}
	return keyFields[k]
}

// checkKey flags empty, unknown and duplicate keys.
func checkKey(c *dissect.Cursor, st *fullState, ki int32, key []byte, k, ko, sEnd int, endByte bool) {
	switch {
	case len(key) == 0:
		c.Expert(ki, eKVEmptyKey, "empty key at offset "+strconv.Itoa(ko)+", before the end of the section at offset "+strconv.Itoa(sEnd)+": naive parsers stop here")
	case k >= 0:
		if st.seen&(1<<k) != 0 {
			c.Expert(ki, eKVDup, "key "+quote(key)+" at offset "+strconv.Itoa(ko)+" was already sent in this reply")
		}
		st.seen |= 1 << k
	default:
		c.Expert(ki, eKVUnknown, "key "+quote(key)+" at offset "+strconv.Itoa(ko)+" is not one Minecraft servers send")
		dup := false
		for _, o := range st.others[:st.nOthers] {
			if bytes.Equal(o, key) {
				dup = true
			}
		}
		if dup {
			c.Expert(ki, eKVDup, "key "+quote(key)+" at offset "+strconv.Itoa(ko)+" was already sent in this reply")
		} else if st.nOthers < len(st.others) {
			st.others[st.nOthers] = key
			st.nOthers++
		}
	}
	control(c, ki, key)
}

// wellKnown adds what a well-known key's value means: parsed numbers,
// the MOTD for the Info column.
func wellKnown(c *dissect.Cursor, st *fullState, k int, vi int32, value []byte, vo int) {
	if vi < 0 {
		return
	}
	switch k {
	case keyHostname:
		if !st.haveMOTD {
			st.motd, st.haveMOTD = value, true
		}
		control(c, vi, value)
		c.P.AddPlain(vi, fMOTDPlain, value)
		return
	case keyNumPlayers:
		st.np, st.npOK = numberValue(c, vi, fNumPlayersVal, value, vo, "query.numplayers", 0)
		st.npNode = vi
	case keyMaxPlayers:
		st.mx, st.mxOK = numberValue(c, vi, fMaxPlayersVal, value, vo, "query.maxplayers", 0)
	case keyHostPort:
		numberValue(c, vi, fHostPort, value, vo, "query.hostport.text", 65535)
	}
	control(c, vi, value)
}

// naivePairs reads pairs until an empty key, as most clients do. It is the
// path for captures cut before the player section.
func naivePairs(c *dissect.Cursor, st *fullState) {
	p := c.P
	for !c.Failed() {
		ko := c.Off()
		if c.Remaining() > 0 && c.Peek(1)[0] == 0 {
			c.Take(fKVEnd, 1)
			return
		}
		kv := c.Open(fKV, -1)
		var key []byte
		k := -1
		if n := bytes.IndexByte(p.Data[ko:], 0); n >= 0 {
			key = p.Data[ko : ko+n]
			k = knownKey(key)
			p.SetKey(kv, keyName(key, k))
		}
		_, ki := c.CString(fKey)
		if ki >= 0 {
			checkKey(c, st, ki, key, k, ko, -1, false)
		}
		vo := c.Off()
		value, vi := c.CString(keyField(k))
		if vi >= 0 {
			p.SetValue(kv, dissect.B(value))
		}
		c.Close()
		wellKnown(c, st, k, vi, value, vo)
	}
}
