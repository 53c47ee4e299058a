// Package completion writes shell completion scripts (bash, zsh, fish) for
// a command from its pflag.FlagSet: every flag, its short form, whether it
// takes a value, its description. The values of a flag come from a list of
// words, from file names, or, when the script runs, from the command's own
// output (Values.Args), so that they follow the binary the script
// completes. The command prints the script with `NAME completion SHELL`,
// and the script completes that subcommand too.
package completion

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/pflag"
)

// Shells are the shells Write makes scripts for.
var Shells = []string{"bash", "zsh", "fish"}

// Values says how the value of a flag completes: from words, from files,
// or from lines the command prints (Args, cut by Cut).
type Values struct {
	Words []string
	Files bool
	Args  string // the command's arguments that list the values
	Cut   string // how to take them from its output: a shell pipeline
}

// Command is what a script completes.
type Command struct {
	Name        string         // the command's name, e.g. mcdissect
	Flags       *pflag.FlagSet // every flag; hidden ones are left out
	Values      func(flag string) Values
	Subcommands []string // the words the first argument may be
}

// flag is a flag as the scripts need it.
type flag struct {
	long, short, desc string
	value             bool // takes a value
	values            Values
}

// flags reads the flag set, in its order. A description ends before its
// example (", e.g. ...").
func (c Command) flags() []flag {
	var out []flag
	c.Flags.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		_, usage := pflag.UnquoteUsage(f)
		if i := strings.Index(usage, ", e.g."); i >= 0 {
			usage = usage[:i]
		}
		out = append(out, flag{
			long: f.Name, short: f.Shorthand, desc: usage,
			value: f.NoOptDefVal == "" && f.Value.Type() != "bool", values: c.Values(f.Name),
		})
	})
	return out
}

// FlagNames is every long flag name the scripts complete, sorted.
func (c Command) FlagNames() []string {
	var n []string
	for _, f := range c.flags() {
		n = append(n, f.long)
	}
	sort.Strings(n)
	return n
}

// Write writes the script for shell, one of Shells.
func Write(w io.Writer, shell string, c Command) error {
	switch shell {
	case "bash":
		writeBash(w, c)
	case "zsh":
		writeZsh(w, c)
	case "fish":
		writeFish(w, c)
	default:
		return fmt.Errorf("completion %q: choose bash, zsh or fish", shell)
	}
	return nil
}
