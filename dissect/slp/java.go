package slp

import (
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/java"
)

// javaState is what decoding knows of a connection's configuration and
// play states: the protocol data for its version (dissect/java), loaded at
// the first packet that needs it, and each direction's state.
type javaState struct {
	v     *java.Version
	err   error
	tried bool
	st    [2]java.State
	init  [2]bool
	// midNoted: the mid-way note was given on the direction's first packet
	midNoted [2]bool
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// javaVersion is the connection's protocol data: the handshake's protocol
// number, or the release named by Options.Version.
func (c *Conn) javaVersion() (*java.Version, error) {
	j := &c.java
	if !j.tried {
		j.tried = true
		switch {
		case c.dec.proto > 0:
			j.v, j.err = java.ForProtocol(int(c.dec.wire))
		case c.opts.Version != "":
			if n, err := strconv.Atoi(c.opts.Version); err == nil {
				j.v, j.err = java.ForProtocol(n)
			} else {
				j.v, j.err = java.ForName(c.opts.Version)
			}
		default:
			j.err = errNoVersion
		}
	}
	return j.v, j.err
}

type verr string

func (e verr) Error() string { return string(e) }

const errNoVersion = verr("no handshake seen and no version given: the packet cannot be read")

// javaState is direction i's state, configuration or play: at its first
// packet, configuration after a 1.20.2+ handshake (or as Options.State
// says for a session without one), play otherwise.
func (c *Conn) javaState(i int) java.State {
	j := &c.java
	if !j.init[i] {
		j.init[i] = true
		j.st[i] = java.Play
		switch {
		case c.dec.proto >= 764 && c.dec.hsSeen:
			j.st[i] = java.Config
		case !c.dec.hsSeen && c.opts.State == "configuration":
			j.st[i] = java.Config
		}
	}
	return j.st[i]
}

// liteHeads are how much of a compressed configuration or play packet a
// summary (a Lite PDU) inflates, one after the other: when a head holds
// every field the packet's Info line shows, the rest is not inflated. The
// first holds what most Info lines show (a chunk's coordinates, a
// registry's name, an entity's ID); a chat line may need the second.
// Packets that declare fewer bytes than the last are inflated whole.
var liteHeads = [...]int{64, 512}

// liteHead is the last of liteHeads.
const liteHead = 512

// infoFits reports whether head, the first bytes of direction i's next
// packet, holds what its Info line needs.
func (c *Conn) infoFits(i int, head []byte) bool {
	v, err := c.javaVersion()
	if err != nil {
		return true // not dissected: Message and Info come from the ID
	}
	dir := dissect.DirC2S
	if i == 1 {
		dir = dissect.DirS2C
	}
	return v.InfoFits(c.javaState(i), dir, head)
}

// javaBody dissects a configuration or play packet whose ID was just
// read (node idi), with the version's data, and follows the direction's
// state (Finish Configuration, Start Configuration).
func (c *Conn) javaBody(cur *dissect.Cursor, i int, id int32, idi int32) {
	p := cur.P
	v, err := c.javaVersion()
	if err != nil {
		p.Message = playName
		p.Info = playName + " " + hexByte(byte(id)) + ", " + strconv.Itoa(cur.Remaining()) + " bytes of data"
		off := cur.Off()
		if r := rest(cur); r > 0 {
			_, n := cur.Take(FieldData, r)
			if !c.playNoted {
				c.playNoted = true
				cur.Expert(n, java.ExpertNoData, "slp.data at offset "+strconv.Itoa(off)+": "+err.Error())
			}
		}
		return
	}
	j := &c.java
	st := c.javaState(i)
	p.AddGenerated(cur.Parent(), FieldJavaState, dissect.S(st.String()), "")
	if c.dec.mid[i] && !c.java.midNoted[i] {
		c.java.midNoted[i] = true
		cur.Expert(idi, ExpertMidway, "no handshake seen: read as "+st.String()+" packets of "+v.Name+" as the version option says, compression "+onOff(c.dec.d[i].compress)+" (guessed from the first packet)")
	}
	dir := dissect.DirC2S
	if i == 1 {
		dir = dissect.DirS2C
	}
	res := v.Decode(cur, st, dir, id, idi)
	if res.Name == "login" && i == 1 && c.player != "" {
		// the player is in the game: the census counts who joined, not
		// who only tried
		p.AddGenerated(0, FieldPlayerJoined, dissect.S(c.player), "")
		if c.playerID != "" {
			p.AddGenerated(0, FieldPlayerJoinedUUID, dissect.S(c.playerID), "")
		}
	}
	if res.Brand != nil {
		f := FieldClientBrand
		if i == 1 {
			f = FieldServerBrand
		}
		p.AddGenerated(0, f, dissect.S(string(res.Brand)), "")
	}
	if res.Known {
		j.st[i] = java.Transition(st, res.Name)
	}
}
