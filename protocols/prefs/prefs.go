// Package prefs is tshark's -o NAME:VALUE: the preferences that mean
// something to mcdissect. tshark's own (tcp.desegment_tcp_streams, ...)
// mean what tshark does only in the setting mcdissect always has, and are
// accepted with that value alone; mc.heuristics is --no-heuristics under a
// preference's name; the protocols' own (protocols.Protocol.Prefs:
// classic.salt, ...) are parsed as their registrations say. Every mistake
// is said in tshark's words.
package prefs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcdissect/mcdissect/protocols"
)

// Set is what -o options set.
type Set struct {
	NoHeuristics bool              // mc.heuristics:FALSE
	Protocol     map[string]string // the protocols' preferences, as given (Parse makes them)
}

// pref is a tshark preference that means something here.
type pref struct {
	name, values, means string
	apply               func(s *Set, v string) error
}

// prefs are the preferences -o accepts besides the protocols' own.
var prefs = []pref{
	{"tcp.desegment_tcp_streams", "TRUE", "TCP streams are reassembled: mcdissect always does", fixedPref(true, "mcdissect always reassembles TCP streams")},
	{"tcp.relative_sequence_numbers", "TRUE", "tcp.seq and tcp.ack count from each direction's first, as tshark's default: mcdissect keeps no absolute numbers", fixedPref(true, "mcdissect shows relative sequence numbers only")},
	{"tcp.check_checksum", "FALSE", "checksums are not checked: mcdissect checks none", fixedPref(false, "mcdissect checks no checksum")},
	{"udp.check_checksum", "FALSE", "as tcp.check_checksum", fixedPref(false, "mcdissect checks no checksum")},
	{"ip.check_checksum", "FALSE", "as tcp.check_checksum", fixedPref(false, "mcdissect checks no checksum")},
	{"mc.heuristics", "TRUE|FALSE", "FALSE is --no-heuristics: protocols by port and -d only", func(s *Set, v string) error {
		b, err := prefBool(v)
		s.NoHeuristics = s.NoHeuristics || err == nil && !b
		return err
	}},
}

// ErrHelp is ApplyAll's answer to -o help: the preferences are to be
// listed (Print).
var ErrHelp = errors.New("-o help")

// ApplyAll applies every -o, in order, and stops at the first mistake or
// at -o help (ErrHelp).
func (s *Set) ApplyAll(opts []string) error {
	for _, o := range opts {
		if o == "help" {
			return ErrHelp
		}
		if err := s.Apply(o); err != nil {
			return err
		}
	}
	return nil
}

// Apply applies one -o NAME:VALUE, or says what is wrong with it in
// tshark's words.
func (s *Set) Apply(o string) error {
	name, v, ok := strings.Cut(o, ":")
	if !ok || name == "" {
		return fmt.Errorf("invalid -o flag %q (write NAME:VALUE; -o help lists what mcdissect knows)", o)
	}
	for _, p := range prefs {
		if p.name == name {
			if err := p.apply(s, strings.TrimSpace(v)); err != nil {
				return fmt.Errorf("-o flag %q: %v", o, err)
			}
			return nil
		}
	}
	if _, ok := protocols.PrefOf(name); ok {
		if v == "" {
			return fmt.Errorf("-o flag %q: an empty value", o)
		}
		if s.Protocol == nil {
			s.Protocol = map[string]string{}
		}
		s.Protocol[name] = v
		return nil
	}
	return fmt.Errorf("-o flag %q specifies unknown preference (mcdissect knows %s; -o help says what they mean)", o, strings.Join(Names(), ", "))
}

// Names are the preferences -o knows: tshark's, then the protocols'.
func Names() []string {
	var n []string
	for _, p := range prefs {
		n = append(n, p.name)
	}
	for _, p := range protocols.All() {
		for _, pr := range p.Prefs {
			n = append(n, pr.Name)
		}
	}
	return n
}

// HelpNames is a shell pipeline that takes the preferences' names, with their
// colon, from -o help's output (Print), for the completion scripts.
const HelpNames = `sed -n 's/^\([^:]*:\).*/\1/p'`

// Print lists the preferences for -o help.
func Print(w io.Writer) {
	for _, p := range prefs {
		fmt.Fprintf(w, "%s:%s\t%s\n", p.name, p.values, p.means)
	}
	for _, p := range protocols.All() {
		for _, pr := range p.Prefs {
			fmt.Fprintf(w, "%s:VALUE\t%s\n", pr.Name, pr.Desc)
		}
	}
}

// Parse makes the value of the protocol preference name from v (a path
// for a File preference, whose file is read here), as its Parse makes it.
func Parse(name, v string) (any, error) { return parseAs(name, name, v) }

// parseAs is Parse whose errors name what the user typed, as: the
// preference (-o) or its flag (--keylog).
func parseAs(as, name, v string) (any, error) {
	pr, _ := protocols.PrefOf(name)
	b := []byte(v)
	if pr.File {
		var err error
		if b, err = os.ReadFile(v); err != nil {
			return nil, fmt.Errorf("%s: %v", as, err)
		}
	}
	x, ok, err := protocols.ParsePref(name, b)
	switch {
	case !ok:
		return nil, fmt.Errorf("%s: no protocol takes this preference", as)
	case err != nil:
		return nil, fmt.Errorf("%s %q: %v", as, v, err)
	}
	return x, nil
}

// fixedPref accepts the one value that matches what mcdissect does.
func fixedPref(want bool, why string) func(*Set, string) error {
	return func(_ *Set, v string) error {
		b, err := prefBool(v)
		if err != nil {
			return err
		}
		if b != want {
			return errors.New(why)
		}
		return nil
	}
}

// prefBool reads a boolean preference as Wireshark writes them.
func prefBool(v string) (bool, error) {
	switch strings.ToUpper(v) {
	case "TRUE":
		return true, nil
	case "FALSE":
		return false, nil
	}
	return false, fmt.Errorf("%q is not TRUE or FALSE", v)
}

// FlagPref is a preference given by a flag of its own: the flag as the
// user types it ("--keylog"), the preference, the value.
type FlagPref struct{ Flag, Pref, Value string }

// Values makes the protocols' preferences of a run (Parse): those their
// flags give (an empty value gives none; an error names the flag), then
// those -o gave, which win. It is nil when none is given.
func (s *Set) Values(flags []FlagPref) (map[string]any, error) {
	var out map[string]any
	set := func(as, name, v string) error {
		x, err := parseAs(as, name, v)
		if err != nil {
			return err
		}
		if out == nil {
			out = map[string]any{}
		}
		out[name] = x
		return nil
	}
	for _, f := range flags {
		if f.Value != "" {
			if err := set(f.Flag, f.Pref, f.Value); err != nil {
				return nil, err
			}
		}
	}
	for name, v := range s.Protocol {
		if err := set(name, name, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}
