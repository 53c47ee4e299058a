package classic

import (
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
)

// Whether the other side announced an ExtEntry's extension too
// (classic.cpe.agreed) is known once the other side's list holds it or is
// complete: a server's ExtEntries, sent before the client's list, wait
// for it. Until then the field is absent, never False: the decoder holds
// the entry's PDU (Pending), and adds the field when the other side's
// list tells, as SLP adds a request's response link. An entry output
// before that (the pipeline held too much behind it, or the connection
// ended) says why in classic.cpe.agreed.unknown; a second pass (-2),
// given the first pass's notes (Conn.Later), adds the field then.

// heldExt is an ExtEntry waiting for the other side's list.
type heldExt struct {
	p     *dissect.PDU // the entry's PDU while it is held, nil once it went out
	frame uint64
	dir   dissect.Dir
	name  string // lower case
	ver   uint32
}

// maxHeldExt bounds the entries waiting: each side announces at most
// maxExtensions.
const maxHeldExt = 2 * maxExtensions

// What a Later notes of an entry given up on: agreedNo, or agreedYes plus
// the other side's version.
const (
	agreedNo  uint64 = 1
	agreedYes uint64 = 2
)

func agreedTag(name string) string { return "cpe.agreed:" + name }

func otherDir(d dissect.Dir) dissect.Dir {
	if d == dissect.DirS2C {
		return dissect.DirC2S
	}
	return dissect.DirS2C
}

// listDone reports whether the side of dir announced all the entries its
// ExtInfo declared.
func (c *Conn) listDone(dir dissect.Dir) bool {
	return c.extDeclare[dir] >= 0 && len(c.ext[dir]) >= c.extDeclare[dir]
}

// agreedNow answers for an entry of dir: known, and whether and with which
// version the other side announced it.
func (c *Conn) agreedNow(dir dissect.Dir, name string) (known, agreed bool, other uint32) {
	o := otherDir(dir)
	if v, ok := findExt(c.ext[o], name); ok {
		return true, true, v
	}
	return c.listDone(o), false, 0
}

// addAgreed adds classic.cpe.agreed to an entry's PDU.
func addAgreed(p *dissect.PDU, agreed bool, other, ver uint32) {
	if agreed {
		p.AddGeneratedFunc(0, FieldExtAgreed, func() (dissect.Value, string) {
			return dissect.Bool(true), "True: the other side announced it too (v" + strconv.FormatUint(uint64(other), 10) + "; agreed v" + strconv.FormatUint(uint64(min(other, ver)), 10) + ")"
		})
		return
	}
	p.AddGenerated(0, FieldExtAgreed, dissect.Bool(false), "False: the other side's list is complete without it")
}

// entryAgreed decides classic.cpe.agreed for the ExtEntry being decoded:
// now if the other side's list tells, else by holding its PDU.
func (d *dec) entryAgreed(name string, ver uint32) {
	c, p := d.conn, d.pdu()
	if known, agreed, other := c.agreedNow(d.dir, name); known {
		addAgreed(p, agreed, other, ver)
		return
	}
	if len(c.held) < maxHeldExt && p.Hold() {
		c.held = append(c.held, heldExt{p: p, frame: d.frame, dir: d.dir, name: lower(name), ver: ver})
		return
	}
	d.unknownAgreed(p, "not known when this record went out: the other side had not finished its list")
}

func (d *dec) unknownAgreed(p *dissect.PDU, why string) {
	p.AddGenerated(0, FieldExtAgreedUnknown, dissect.Value{}, why)
}

// settleHeld answers the entries the negotiation now tells about: those
// still held get the field and go; those given up on are noted for a
// second pass.
func (c *Conn) settleHeld() {
	k := 0
	for _, e := range c.held {
		known, agreed, other := c.agreedNow(e.dir, e.name)
		if !known {
			c.held[k] = e
			k++
			continue
		}
		if e.p != nil {
			addAgreed(e.p, agreed, other, e.ver)
			e.p.Pending = false
		} else if agreed {
			c.Later.Note(e.frame, agreedTag(e.name), agreedYes+uint64(other))
		} else {
			c.Later.Note(e.frame, agreedTag(e.name), agreedNo)
		}
	}
	clear(c.held[k:])
	c.held = c.held[:k]
}

// GiveUp lets go of p, an ExtEntry held for the other side's list, when
// the pipeline must output it first (for the reason r): it says that the
// answer was not known then, and why, unless a first pass (-2) noted it.
// The entry is still answered when the list comes, for a first pass to
// note.
func (c *Conn) GiveUp(p *dissect.PDU, r dissect.Release) {
	if c.ident.GiveUp(p, r, &outcomes, c.Later) {
		return
	}
	for i := range c.held {
		e := &c.held[i]
		if e.p != p {
			continue
		}
		switch v, ok := c.Later.Noted(e.frame, agreedTag(e.name)); {
		case ok && v >= agreedYes:
			addAgreed(p, true, uint32(v-agreedYes), e.ver)
		case ok:
			addAgreed(p, false, 0, e.ver)
		default:
			p.AddGenerated(0, FieldExtAgreedUnknown, dissect.Value{}, agreedUnknown.Of(r))
		}
		p.Pending = false
		e.p = nil
		return
	}
}

// agreedUnknown is GiveUp's text, by reason.
var agreedUnknown = dissect.NewReleaseTexts(func(r dissect.Release) string {
	return "not known when this record went out (" + r.Reason() + "): the other side had not finished its list; " + r.Remedy() + " shows it"
})

// Close lets go of the entries still held when the connection ends (the
// other side never finished its list) and of a level being joined; an
// identification still waiting ends with how the connection did.
func (c *Conn) Close(e dissect.ConnEnd) {
	c.ident.End(e.Request(), &outcomes, c.Later)
	for _, e := range c.held {
		if e.p != nil {
			e.p.AddGenerated(0, FieldExtAgreedUnknown, dissect.Value{}, "never known: the connection ended before the other side finished its list")
			e.p.Pending = false
		}
	}
	clear(c.held)
	c.held = c.held[:0]
	c.level.reset(c.levels())
	if c.d != nil {
		putDec(c.d)
		c.d = nil
	}
}

func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
