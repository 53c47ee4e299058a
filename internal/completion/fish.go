package completion

import (
	"fmt"
	"io"
	"strings"
)

func writeFish(w io.Writer, c Command) {
	n := c.Name
	fmt.Fprintf(w, "# fish completion for %s, made by `%s completion fish` from its flags.\n", n, n)
	fmt.Fprintf(w, "# Load it with: %s completion fish | source\n", n)
	fmt.Fprintf(w, "function __%s_run; set -l cmd (commandline -opc)[1]; command $cmd $argv 2>/dev/null; end\n", n)
	fmt.Fprintf(w, "complete -c %s -f\n", n)
	fmt.Fprintf(w, "complete -c %s -n __fish_use_subcommand -a %s\n", n, shellQuote(strings.Join(c.Subcommands, " ")))
	fmt.Fprintf(w, "complete -c %s -n '__fish_seen_subcommand_from completion' -a %s\n", n, shellQuote(strings.Join(Shells, " ")))
	for _, f := range c.flags() {
		var b strings.Builder
		b.WriteString("complete -c " + n)
		if f.short != "" {
			b.WriteString(" -s " + f.short)
		}
		b.WriteString(" -l " + f.long + " -d " + shellQuote(f.desc))
		if f.value {
			v := f.values
			switch {
			case v.Files:
				b.WriteString(" -r -F")
			case len(v.Words) > 0:
				b.WriteString(" -x -a " + shellQuote(strings.Join(v.Words, " ")))
			case v.Args != "":
				b.WriteString(" -x -a " + shellQuote("(__"+n+"_run "+v.Args+" | "+v.Cut+")"))
			default:
				b.WriteString(" -x")
			}
		}
		fmt.Fprintln(w, b.String())
	}
}
