package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcdissect/mcdissect/protocols/prefs"
)

// tshark's flags that scripts pass and that mean little or nothing here:
// -n and -N (mcdissect resolves no names), -o (the preferences that mean
// something here, package prefs), -a packets:N, -E occurrence=N. Each is
// accepted, or refused with tshark's words when it asks for what mcdissect
// cannot do.

// habitFlags are their values before checking.
type habitFlags struct {
	noResolve bool     // -n
	resolve   string   // -N
	prefs     []string // -o
	set       prefs.Set
}

func (h *habitFlags) add(fs *pflag.FlagSet) {
	fs.BoolVarP(&h.noResolve, "no-name-resolution", "n", false, "resolve no names (as tshark -n; mcdissect never resolves any), e.g. -n")
	fs.StringVarP(&h.resolve, "name-resolving", "N", "", "tshark's name resolution `FLAGS` (d m n N t v): accepted, but mcdissect resolves no names and says so, e.g. -N n")
	fs.StringArrayVarP(&h.prefs, "option", "o", nil, "set a tshark preference `NAME:VALUE` that means something here (repeatable; -o help lists them), e.g. -o classic.salt:wo6kVAHjxoJcInKx")
}

// resolveLetters are -N's letters, tshark's.
const resolveLetters = "dmnNtv"

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
	if err := h.set.ApplyAll(h.prefs); err != nil {
		return note, err // prefs.ErrHelp for -o help
	}
	c.noHeuristics = c.noHeuristics || h.set.NoHeuristics
	return note, nil
}
