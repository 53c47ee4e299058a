package completion

import (
	"fmt"
	"io"
	"strings"
)

// shellQuote quotes s for a shell's single quotes.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func writeBash(w io.Writer, c Command) {
	n := c.Name
	fmt.Fprintf(w, "# bash completion for %s, made by `%s completion bash` from its flags.\n", n, n)
	fmt.Fprintf(w, "# Load it with: source <(%s completion bash)\n", n)
	fmt.Fprintf(w, "_%s() {\n", n)
	fmt.Fprintln(w, `    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="${COMP_WORDS[0]}" eq=""`)
	fmt.Fprintln(w, `    if [[ "$cur" == --*=* ]]; then prev="${cur%%=*}"; eq="$prev="; cur="${cur#*=}"; fi`)
	fmt.Fprintln(w, `    case "$prev" in`)
	flags := c.flags()
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
		case v.Files:
			fmt.Fprintf(w, "        %s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", pat)
		case len(v.Words) > 0:
			fmt.Fprintf(w, "        %s) COMPREPLY=($(compgen -P \"$eq\" -W %s -- \"$cur\")); return ;;\n", pat, shellQuote(strings.Join(v.Words, " ")))
		case v.Args != "":
			fmt.Fprintf(w, "        %s) COMPREPLY=($(compgen -P \"$eq\" -W \"$(\"$cmd\" %s 2>/dev/null | %s)\" -- \"$cur\")); return ;;\n", pat, v.Args, v.Cut)
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
	fmt.Fprintf(w, "    if [[ $COMP_CWORD -eq 1 && \"$cur\" != -* ]]; then COMPREPLY=($(compgen -W %s -- \"$cur\")); return; fi\n", shellQuote(strings.Join(c.Subcommands, " ")))
	fmt.Fprintf(w, "    if [[ \"${COMP_WORDS[1]}\" == completion && $COMP_CWORD -eq 2 ]]; then COMPREPLY=($(compgen -W %s -- \"$cur\")); return; fi\n", shellQuote(strings.Join(Shells, " ")))
	fmt.Fprintf(w, "    COMPREPLY=($(compgen -W %s -- \"$cur\"))\n", shellQuote(strings.Join(names, " ")))
	fmt.Fprintln(w, "}")
	fmt.Fprintf(w, "complete -F _%s %s\n", n, n)
}
