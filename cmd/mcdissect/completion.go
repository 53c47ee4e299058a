package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/render"
)

// `mcdissect completion bash|zsh|fish` prints a completion script made
// from the flag set itself (flagSet): every flag, its short form, whether
// it takes a value, its description; the values of a flag come from the
// program's own tables (-T, -t, -O, -G, --color) or, when the script
// runs, from the program itself (-e and -Y: -G fields; -i: -D; -z: -z
// help; -o: -o help), so that they follow the binary the script completes.

// outputFormats are the -T values; glossaryReports the -G ones.
var (
	outputFormats   = []string{"text", "json", "ek", "fields", "pdml", "psml", "html"}
	glossaryReports = []string{"fields", "protocols", "experts"}
	colourWhens     = []string{"auto", "always", "never"}
	subcommands     = []string{"decode", "completion"}
)

// flagValues says how the value of a flag completes: from words, from
// files, or from lines the program prints (args, the words' column).
type flagValues struct {
	words []string
	files bool
	args  string // the program's arguments that list the values
	cut   string // how to take them from its output: a shell pipeline
}

// How to read the program's lists: -G fields' third column; -D's names
// ("1. eth0 (…)"); -z help's statistics; -o help's names.
const (
	cutFields = `cut -f3`
	cutIfaces = `sed -n 's/^[0-9]*\. \([^ ]*\).*/\1/p'`
	cutStats  = `awk 'NR > 1 { print $1 }'`
	cutPrefs  = `sed -n 's/^\([^:]*:\).*/\1/p'`
)

func valuesOf(name string) flagValues {
	switch name {
	case "read-file", "write-file", "cpuprofile", memProfileFlag:
		return flagValues{files: true}
	case "output-format":
		return flagValues{words: outputFormats}
	case "time-format":
		return flagValues{words: render.TimeFormats}
	case "only-protocols":
		return flagValues{words: onlyProtocols()}
	case "color":
		return flagValues{words: colourWhens}
	case "glossary":
		return flagValues{words: glossaryReports}
	case "autostop":
		return flagValues{words: []string{"packets:", "duration:", "filesize:", "files:"}}
	case "ring-buffer":
		return flagValues{words: []string{"filesize:", "duration:", "interval:", "packets:", "files:"}}
	case "fields-option":
		return flagValues{words: []string{"header=y", "header=n", "separator=/t", "separator=/s", "separator=,", "aggregator=,",
			"occurrence=a", "occurrence=f", "occurrence=l", "quote=d", "quote=s", "quote=n"}}
	case "decode-as":
		return flagValues{words: []string{"udp.port==", "tcp.port=="}}
	case "name-resolving":
		return flagValues{words: strings.Split(resolveLetters, "")}
	case "export-objects":
		var w []string
		for _, k := range protocols.ObjectKinds() {
			w = append(w, k.Kind+",")
		}
		slices.Sort(w)
		return flagValues{words: w}
	case "field", "display-filter":
		return flagValues{args: "-G fields", cut: cutFields}
	case "interface":
		return flagValues{args: "-D", cut: cutIfaces}
	case "statistics":
		return flagValues{args: "-z help", cut: cutStats}
	case "option":
		return flagValues{args: "-o help", cut: cutPrefs}
	}
	return flagValues{}
}

// completionFlag is a flag as the scripts need it.
type completionFlag struct {
	long, short, desc string
	value             bool // takes a value
	values            flagValues
}

// completionFlags reads the flag set, in its order.
func completionFlags() []completionFlag {
	fs, _ := new(config).flagSet(io.Discard)
	var out []completionFlag
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		_, usage := pflag.UnquoteUsage(f)
		if i := strings.Index(usage, ", e.g."); i >= 0 {
			usage = usage[:i]
		}
		out = append(out, completionFlag{
			long: f.Name, short: f.Shorthand, desc: usage,
			value: f.NoOptDefVal == "" && f.Value.Type() != "bool", values: valuesOf(f.Name),
		})
	})
	return out
}

func runCompletion(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "mcdissect: usage: mcdissect completion bash|zsh|fish (e.g. source <(mcdissect completion bash))")
		return exitUsage
	}
	flags := completionFlags()
	switch args[0] {
	case "bash":
		writeBash(stdout, flags)
	case "zsh":
		writeZsh(stdout, flags)
	case "fish":
		writeFish(stdout, flags)
	default:
		fmt.Fprintf(stderr, "mcdissect: completion %q: choose bash, zsh or fish\n", args[0])
		return exitUsage
	}
	return exitOK
}

// shellWords quotes words for a shell's single quotes.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func writeBash(w io.Writer, flags []completionFlag) {
	fmt.Fprintln(w, "# bash completion for mcdissect, made by `mcdissect completion bash` from its flags.")
	fmt.Fprintln(w, "# Load it with: source <(mcdissect completion bash)")
	fmt.Fprintln(w, "_mcdissect() {")
	fmt.Fprintln(w, `    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="${COMP_WORDS[0]}" eq=""`)
	fmt.Fprintln(w, `    if [[ "$cur" == --*=* ]]; then prev="${cur%%=*}"; eq="$prev="; cur="${cur#*=}"; fi`)
	fmt.Fprintln(w, `    case "$prev" in`)
	var none []string
	for _, f := range flags {
		if !f.value {
			continue
		}
		pat := "--" + f.long
		if f.short != "" {
			pat = "-" + f.short + "|" + pat
		}
		v := f.values
		switch {
		case v.files:
			fmt.Fprintf(w, "        %s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", pat)
		case len(v.words) > 0:
			fmt.Fprintf(w, "        %s) COMPREPLY=($(compgen -P \"$eq\" -W %s -- \"$cur\")); return ;;\n", pat, shellQuote(strings.Join(v.words, " ")))
		case v.args != "":
			fmt.Fprintf(w, "        %s) COMPREPLY=($(compgen -P \"$eq\" -W \"$(\"$cmd\" %s 2>/dev/null | %s)\" -- \"$cur\")); return ;;\n", pat, v.args, v.cut)
		default:
			none = append(none, pat)
		}
	}
	if len(none) > 0 {
		fmt.Fprintf(w, "        %s) return ;;\n", strings.Join(none, "|"))
	}
	fmt.Fprintln(w, "    esac")
	var names []string
	for _, f := range flags {
		names = append(names, "--"+f.long)
		if f.short != "" {
			names = append(names, "-"+f.short)
		}
	}
	fmt.Fprintf(w, "    if [[ $COMP_CWORD -eq 1 && \"$cur\" != -* ]]; then COMPREPLY=($(compgen -W %s -- \"$cur\")); return; fi\n", shellQuote(strings.Join(subcommands, " ")))
	fmt.Fprintf(w, "    if [[ \"${COMP_WORDS[1]}\" == completion && $COMP_CWORD -eq 2 ]]; then COMPREPLY=($(compgen -W 'bash zsh fish' -- \"$cur\")); return; fi\n")
	fmt.Fprintf(w, "    COMPREPLY=($(compgen -W %s -- \"$cur\"))\n", shellQuote(strings.Join(names, " ")))
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, "complete -F _mcdissect mcdissect")
}

// zshQuote escapes a description for _arguments' [...] inside single quotes.
func zshDesc(s string) string {
	r := strings.NewReplacer("'", `'\''`, "[", `\[`, "]", `\]`, ":", `\:`)
	return r.Replace(s)
}

func writeZsh(w io.Writer, flags []completionFlag) {
	fmt.Fprintln(w, "#compdef mcdissect")
	fmt.Fprintln(w, "# zsh completion for mcdissect, made by `mcdissect completion zsh` from its flags.")
	fmt.Fprintln(w, "# Load it with: source <(mcdissect completion zsh), or save it as _mcdissect in $fpath.")
	fmt.Fprintln(w, "_mcdissect_list() { local -a vals; vals=(${(f)\"$(\"${words[1]}\" ${=1} 2>/dev/null | eval $2)\"}); compadd -a vals }")
	fmt.Fprintln(w, "_mcdissect() {")
	fmt.Fprintln(w, "  if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then compadd "+strings.Join(subcommands, " ")+"; fi")
	fmt.Fprintln(w, "  if [[ $words[2] == completion ]]; then compadd bash zsh fish; return; fi")
	fmt.Fprintln(w, "  _arguments -s -S \\")
	for _, f := range flags {
		names := "--" + f.long
		excl := "--" + f.long
		if f.short != "" {
			excl = "-" + f.short + " --" + f.long
		}
		spec := ""
		if f.value {
			arg := ":value:"
			v := f.values
			switch {
			case v.files:
				arg += "_files"
			case len(v.words) > 0:
				arg += "(" + strings.Join(v.words, " ") + ")"
			case v.args != "":
				arg += "{_mcdissect_list " + shellQuoteZsh(v.args) + " " + shellQuoteZsh(v.cut) + "}"
			default:
				arg += " "
			}
			spec = arg
		}
		repeat := ""
		if strings.Contains(f.desc, "repeatable") {
			repeat, excl = "*", ""
		}
		eqLong, eqShort := "--"+f.long, "-"+f.short
		if f.value {
			eqLong += "="
			eqShort += "+"
		}
		prefix := ""
		if excl != "" {
			prefix = "(" + excl + ")"
		}
		desc := "[" + zshDesc(f.desc) + "]"
		if f.short != "" {
			fmt.Fprintf(w, "    '%s%s'{%s,%s}'%s%s' \\\n", prefix, repeat, eqShort, eqLong, desc, zshArg(spec))
		} else {
			fmt.Fprintf(w, "    '%s%s%s%s%s' \\\n", prefix, repeat, eqLong, desc, zshArg(spec))
		}
		_ = names
	}
	fmt.Fprintln(w, "    '*::arg:_files'")
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, `if [[ "${funcstack[1]}" == _mcdissect ]]; then _mcdissect "$@"; else compdef _mcdissect mcdissect; fi`)
}

// zshArg escapes an _arguments value spec for single quotes.
func zshArg(s string) string { return strings.ReplaceAll(s, "'", `'\''`) }

// shellQuoteZsh quotes for double quotes inside the single-quoted spec.
func shellQuoteZsh(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

func writeFish(w io.Writer, flags []completionFlag) {
	fmt.Fprintln(w, "# fish completion for mcdissect, made by `mcdissect completion fish` from its flags.")
	fmt.Fprintln(w, "# Load it with: mcdissect completion fish | source")
	fmt.Fprintln(w, "function __mcdissect_run; set -l cmd (commandline -opc)[1]; command $cmd $argv 2>/dev/null; end")
	fmt.Fprintln(w, "complete -c mcdissect -f")
	fmt.Fprintf(w, "complete -c mcdissect -n __fish_use_subcommand -a %s\n", shellQuote(strings.Join(subcommands, " ")))
	fmt.Fprintln(w, "complete -c mcdissect -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'")
	for _, f := range flags {
		var b strings.Builder
		b.WriteString("complete -c mcdissect")
		if f.short != "" {
			b.WriteString(" -s " + f.short)
		}
		b.WriteString(" -l " + f.long + " -d " + shellQuote(f.desc))
		if f.value {
			v := f.values
			switch {
			case v.files:
				b.WriteString(" -r -F")
			case len(v.words) > 0:
				b.WriteString(" -x -a " + shellQuote(strings.Join(v.words, " ")))
			case v.args != "":
				b.WriteString(" -x -a " + shellQuote("(__mcdissect_run "+v.args+" | "+v.cut+")"))
			default:
				b.WriteString(" -x")
			}
		}
		fmt.Fprintln(w, b.String())
	}
}

// sortedFlagNames is every long flag name, for tests.
func sortedFlagNames() []string {
	var n []string
	for _, f := range completionFlags() {
		n = append(n, f.long)
	}
	sort.Strings(n)
	return n
}
