package completion

import (
	"fmt"
	"io"
	"strings"
)

// zshDesc escapes a description for _arguments' [...] inside single quotes.
func zshDesc(s string) string {
	r := strings.NewReplacer("'", `'\''`, "[", `\[`, "]", `\]`, ":", `\:`)
	return r.Replace(s)
}

// zshArg escapes an _arguments value spec for single quotes.
func zshArg(s string) string { return strings.ReplaceAll(s, "'", `'\''`) }

// shellQuoteZsh quotes for double quotes inside the single-quoted spec.
func shellQuoteZsh(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

func writeZsh(w io.Writer, c Command) {
	n := c.Name
	fmt.Fprintf(w, "#compdef %s\n", n)
	fmt.Fprintf(w, "# zsh completion for %s, made by `%s completion zsh` from its flags.\n", n, n)
	fmt.Fprintf(w, "# Load it with: source <(%s completion zsh), or save it as _%s in $fpath.\n", n, n)
	fmt.Fprintf(w, "_%s_list() { local -a vals; vals=(${(f)\"$(\"${words[1]}\" ${=1} 2>/dev/null | eval $2)\"}); compadd -a vals }\n", n)
	fmt.Fprintf(w, "_%s() {\n", n)
	fmt.Fprintln(w, "  if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then compadd "+strings.Join(c.Subcommands, " ")+"; fi")
	fmt.Fprintln(w, "  if [[ $words[2] == completion ]]; then compadd "+strings.Join(Shells, " ")+"; return; fi")
	fmt.Fprintln(w, "  _arguments -s -S \\")
	for _, f := range c.flags() {
		excl := "--" + f.long
		if f.short != "" {
			excl = "-" + f.short + " --" + f.long
		}
		spec := ""
		if f.value {
			arg := ":value:"
			v := f.values
			switch {
			case v.Files:
				arg += "_files"
			case len(v.Words) > 0:
				arg += "(" + strings.Join(v.Words, " ") + ")"
			case v.Args != "":
				arg += "{_" + n + "_list " + shellQuoteZsh(v.Args) + " " + shellQuoteZsh(v.Cut) + "}"
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
	}
	fmt.Fprintln(w, "    '*::arg:_files'")
	fmt.Fprintln(w, "}")
	fmt.Fprintf(w, "if [[ \"${funcstack[1]}\" == _%s ]]; then _%s \"$@\"; else compdef _%s %s; fi\n", n, n, n, n)
}
