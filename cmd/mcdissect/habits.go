package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcdissect/mcdissect/protocols"
)

// tshark's flags that scripts pass and that mean little or nothing here:
// -n and -N (mcdissect resolves no names), -o (the preferences that mean
// something here), -a packets:N, -E occurrence=N. Each is accepted, or
// refused with tshark's words when it asks for what mcdissect cannot do.

// habitFlags are their values before checking.
type habitFlags struct {
	noResolve bool     // -n
	resolve   string   // -N
	prefs     []string // -o

	protoPrefs map[string]string // -o NAME:VALUE of a protocol's preference
}

func (h *habitFlags) add(fs *pflag.FlagSet) {
	fs.BoolVarP(&h.noResolve, "no-name-resolution", "n", false, "resolve no names (as tshark -n; mcdissect never resolves any), e.g. -n")
	fs.StringVarP(&h.resolve, "name-resolving", "N", "", "tshark's name resolution `FLAGS` (d m n N t v): accepted, but mcdissect resolves no names and says so, e.g. -N n")
	fs.StringArrayVarP(&h.prefs, "option", "o", nil, "set a tshark preference `NAME:VALUE` that means something here (repeatable; -o help lists them), e.g. -o classic.salt:wo6kVAHjxoJcInKx")
}

// resolveLetters are -N's letters, tshark's.
const resolveLetters = "dmnNtv"

// errPrefsHelp is -o help's answer: the preferences are listed.
var errPrefsHelp = errors.New("-o help")

// check validates the flags; the note, when not empty, goes to stderr.
func (h *habitFlags) check(c *config) (note string, err error) {
	for _, r := range h.resolve {
		if !strings.ContainsRune(resolveLetters, r) {
			return "", fmt.Errorf("-N specifies unknown resolving option '%c'; valid options are d, m, n, N, t and v (and mcdissect resolves no names whatever they are)", r)
		}
	}
	if h.resolve != "" {
		note = "mcdissect: note: -N " + h.resolve + ": mcdissect resolves no names: addresses, ports and MAC addresses are always shown as numbers"
	}
	for _, o := range h.prefs {
		if o == "help" {
			return note, errPrefsHelp
		}
		if err := applyPref(c, o); err != nil {
			return note, err
		}
	}
	return note, nil
}

// pref is a tshark preference that means something here.
type pref struct {
	name, values, means string
	apply               func(c *config, v string) error
}

// prefs are the preferences -o accepts besides the protocols' own
// (protocols.Protocol.Prefs: classic.salt): tshark's mean what tshark
// does only in the setting mcdissect always has; mc.heuristics is
// --no-heuristics under a preference's name.
var prefs = []pref{
	{"tcp.desegment_tcp_streams", "TRUE", "TCP streams are reassembled: mcdissect always does", fixedPref(true, "mcdissect always reassembles TCP streams")},
	{"tcp.relative_sequence_numbers", "TRUE", "tcp.seq and tcp.ack count from each direction's first, as tshark's default: mcdissect keeps no absolute numbers", fixedPref(true, "mcdissect shows relative sequence numbers only")},
	{"tcp.check_checksum", "FALSE", "checksums are not checked: mcdissect checks none", fixedPref(false, "mcdissect checks no checksum")},
	{"udp.check_checksum", "FALSE", "as tcp.check_checksum", fixedPref(false, "mcdissect checks no checksum")},
	{"ip.check_checksum", "FALSE", "as tcp.check_checksum", fixedPref(false, "mcdissect checks no checksum")},
	{"mc.heuristics", "TRUE|FALSE", "FALSE is --no-heuristics: protocols by port and -d only", func(c *config, v string) error {
		b, err := prefBool(v)
		c.noHeuristics = c.noHeuristics || err == nil && !b
		return err
	}},
}

// applyPref applies one -o NAME:VALUE, or says what is wrong with it in
// tshark's words.
func applyPref(c *config, o string) error {
	name, v, ok := strings.Cut(o, ":")
	if !ok || name == "" {
		return fmt.Errorf("invalid -o flag %q (write NAME:VALUE; -o help lists what mcdissect knows)", o)
	}
	for _, p := range prefs {
		if p.name == name {
			if err := p.apply(c, strings.TrimSpace(v)); err != nil {
				return fmt.Errorf("-o flag %q: %v", o, err)
			}
			return nil
		}
	}
	if _, ok := protocols.PrefOf(name); ok {
		if v == "" {
			return fmt.Errorf("-o flag %q: an empty value", o)
		}
		if c.habits.protoPrefs == nil {
			c.habits.protoPrefs = map[string]string{}
		}
		c.habits.protoPrefs[name] = v
		return nil
	}
	return fmt.Errorf("-o flag %q specifies unknown preference (mcdissect knows %s; -o help says what they mean)", o, prefNames())
}

func prefNames() string {
	var n []string
	for _, p := range prefs {
		n = append(n, p.name)
	}
	for _, p := range protocols.All() {
		for _, pr := range p.Prefs {
			n = append(n, pr.Name)
		}
	}
	return strings.Join(n, ", ")
}

// printPrefs lists the preferences for -o help.
func printPrefs(w io.Writer) {
	for _, p := range prefs {
		fmt.Fprintf(w, "%s:%s\t%s\n", p.name, p.values, p.means)
	}
	for _, p := range protocols.All() {
		for _, pr := range p.Prefs {
			fmt.Fprintf(w, "%s:VALUE\t%s\n", pr.Name, pr.Desc)
		}
	}
}

// setPref sets the protocol preference name to v (a path for a File
// preference, whose file is read here), as its Parse makes it.
func (c *config) setPref(name, v string) error {
	pr, _ := protocols.PrefOf(name)
	b := []byte(v)
	if pr.File {
		var err error
		if b, err = os.ReadFile(v); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	}
	x, ok, err := protocols.ParsePref(name, b)
	switch {
	case !ok:
		return fmt.Errorf("%s: no protocol takes this preference", name)
	case err != nil:
		return fmt.Errorf("%s %q: %v", name, v, err)
	}
	if c.opts.Prefs == nil {
		c.opts.Prefs = map[string]any{}
	}
	c.opts.Prefs[name] = x
	return nil
}

// applyProtocolPrefs hands the protocols' preferences -o gave to the run,
// over those of their flags (--classic-salt, --keylog, --java-version).
func (h *habitFlags) applyProtocolPrefs(c *config) error {
	for k, v := range h.protoPrefs {
		if err := c.setPref(k, v); err != nil {
			return err
		}
	}
	return nil
}

// fixedPref accepts the one value that matches what mcdissect does.
func fixedPref(want bool, why string) func(*config, string) error {
	return func(_ *config, v string) error {
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

// occurrence reads -E occurrence=: f, l, a, or N (1 the first, -1 the
// last).
func occurrence(v string) (byte, int, error) {
	if v != "" && strings.IndexByte("afl", v[0]) >= 0 {
		return v[0], 0, nil // by its first character, as tshark: first is f
	}
	n, err := strconv.Atoi(v)
	if err != nil || n == 0 {
		return 0, 0, fmt.Errorf("-E occurrence=%q: choose a (all), f (first), l (last) or a number N (the Nth, -1 the last)", v)
	}
	return 'a', n, nil
}
