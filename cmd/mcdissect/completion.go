package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/internal/completion"
	"github.com/mcdissect/mcdissect/internal/profile"
	"github.com/mcdissect/mcdissect/internal/term"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/protocols/glossary"
	"github.com/mcdissect/mcdissect/protocols/prefs"
	"github.com/mcdissect/mcdissect/render"
	"github.com/mcdissect/mcdissect/stats"
)

// `mcdissect completion bash|zsh|fish` prints a completion script made
// from the flag set itself (flagSet, package completion); the values of a
// flag come from the program's own tables (-T, -t, -O, -G, --color) or,
// when the script runs, from the program itself (-e and -Y: -G fields; -i:
// -D; -z: -z help; -o: -o help), so that they follow the binary the script
// completes.

// subcommands are the words before the flags.
var subcommands = []string{"decode", "completion"}

func valuesOf(name string) completion.Values {
	switch name {
	case "read-file", "write-file", "cpuprofile", profile.HeapFlag:
		return completion.Values{Files: true}
	case "output-format":
		return completion.Values{Words: render.Formats}
	case "time-format":
		return completion.Values{Words: render.TimeFormats}
	case "only-protocols":
		return completion.Values{Words: render.OnlyProtocols()}
	case "color":
		return completion.Values{Words: term.ColourWhens}
	case "glossary":
		return completion.Values{Words: glossary.Reports}
	case "autostop":
		return completion.Values{Words: []string{"packets:", "duration:", "filesize:", "files:"}}
	case "ring-buffer":
		return completion.Values{Words: []string{"filesize:", "duration:", "interval:", "packets:", "files:"}}
	case "fields-option":
		return completion.Values{Words: []string{"header=y", "header=n", "separator=/t", "separator=/s", "separator=,", "aggregator=,",
			"occurrence=a", "occurrence=f", "occurrence=l", "quote=d", "quote=s", "quote=n"}}
	case "decode-as":
		return completion.Values{Words: []string{"udp.port==", "tcp.port=="}}
	case "name-resolving":
		return completion.Values{Words: strings.Split(resolveLetters, "")}
	case "export-objects":
		var w []string
		for _, k := range protocols.ObjectKinds() {
			w = append(w, k.Kind+",")
		}
		slices.Sort(w)
		return completion.Values{Words: w}
	case "field", "display-filter":
		return completion.Values{Args: "-G fields", Cut: glossary.FieldNames}
	case "interface":
		return completion.Values{Args: "-D", Cut: capture.InterfaceNames}
	case "statistics":
		return completion.Values{Args: "-z help", Cut: stats.HelpNames}
	case "option":
		return completion.Values{Args: "-o help", Cut: prefs.HelpNames}
	}
	return completion.Values{}
}

// completionCommand is mcdissect as the scripts complete it.
func completionCommand() completion.Command {
	fs, _ := new(config).flagSet(io.Discard)
	return completion.Command{Name: "mcdissect", Flags: fs, Values: valuesOf, Subcommands: subcommands}
}

func runCompletion(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "mcdissect: usage: mcdissect completion bash|zsh|fish (e.g. source <(mcdissect completion bash))")
		return exitUsage
	}
	if err := completion.Write(stdout, args[0], completionCommand()); err != nil {
		fmt.Fprintf(stderr, "mcdissect: %v\n", err)
		return exitUsage
	}
	return exitOK
}
