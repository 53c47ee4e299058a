package completion

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func testCommand() Command {
	fs := pflag.NewFlagSet("demo", pflag.ContinueOnError)
	fs.StringP("format", "T", "text", "output `FORMAT`, e.g. -T json")
	fs.String("out", "", "write to `FILE`, e.g. --out x")
	fs.StringArrayP("field", "e", nil, "print `FIELD` (repeatable), e.g. -e a.b")
	fs.BoolP("verbose", "V", false, "say more, e.g. -V")
	fs.String("secret", "", "hidden")
	fs.MarkHidden("secret")
	return Command{Name: "demo", Flags: fs, Subcommands: []string{"decode", "completion"}, Values: func(name string) Values {
		switch name {
		case "format":
			return Values{Words: []string{"text", "json"}}
		case "out":
			return Values{Files: true}
		case "field":
			return Values{Args: "-G fields", Cut: "cut -f3"}
		}
		return Values{}
	}}
}

// TestScripts: each script names every flag but the hidden ones, with its
// description cut before the example, and completes values as Values says.
func TestScripts(t *testing.T) {
	c := testCommand()
	if got := strings.Join(c.FlagNames(), " "); got != "field format out verbose" {
		t.Errorf("FlagNames: %q", got)
	}
	for _, tc := range []struct {
		shell string
		want  []string
	}{
		{"bash", []string{"complete -F _demo demo", `-T|--format) COMPREPLY=($(compgen -P "$eq" -W 'text json'`, `--out) COMPREPLY=($(compgen -f`, `"$cmd" -G fields 2>/dev/null | cut -f3`, "--verbose -V"}},
		{"zsh", []string{"#compdef demo", `'(-T --format)'{-T+,--format=}'[output FORMAT]:value:(text json)'`, `'*'{-e+,--field=}'[print FIELD (repeatable)]:value:{_demo_list "-G fields" "cut -f3"}'`, "'(-V --verbose)'{-V,--verbose}'[say more]'"}},
		{"fish", []string{"complete -c demo -s T -l format -d 'output FORMAT' -x -a 'text json'", "complete -c demo -l out -d 'write to FILE' -r -F", "complete -c demo -s V -l verbose -d 'say more'\n"}},
	} {
		t.Run(tc.shell, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, tc.shell, c); err != nil {
				t.Fatal(err)
			}
			s := b.String()
			for _, w := range tc.want {
				if !strings.Contains(s, w) {
					t.Errorf("no %q in\n%s", w, s)
				}
			}
			if strings.Contains(s, "secret") || strings.Contains(s, "e.g.") {
				t.Errorf("a hidden flag or an example in\n%s", s)
			}
			if bin, err := exec.LookPath(tc.shell); err == nil && tc.shell != "fish" {
				if out, err := exec.Command(bin, "-n", "-c", s).CombinedOutput(); err != nil {
					t.Errorf("%s -n: %v\n%s", tc.shell, err, out)
				}
			}
		})
	}
	if err := Write(&bytes.Buffer{}, "tcsh", c); err == nil || !strings.Contains(err.Error(), "choose bash, zsh or fish") {
		t.Errorf("tcsh: %v", err)
	}
}
