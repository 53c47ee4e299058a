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
			j.v, j.err = java.ForProtocol(int(c.dec.proto))
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
	st := j.st[i]
	if !p.Lite {
		p.AddGenerated(cur.Parent(), FieldJavaState, dissect.S(st.String()), "")
	}
	if c.dec.mid[i] && !c.java.midNoted[i] {
		c.java.midNoted[i] = true
		cur.Expert(idi, ExpertMidway, "no handshake seen: read as "+st.String()+" packets of "+v.Name+" as the version option says, compression "+onOff(c.dec.d[i].compress)+" (guessed from the first packet)")
	}
	dir := dissect.DirC2S
	if i == 1 {
		dir = dissect.DirS2C
	}
	res := v.Decode(cur, st, dir, id, idi)
	if res.Known {
		j.st[i] = java.Transition(st, res.Name)
	}
}
