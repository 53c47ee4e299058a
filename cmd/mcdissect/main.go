// Command mcdissect dissects Minecraft server traffic (Query, Server List
// Ping, Classic) from capture files or live interfaces, with tshark's flags
// and output shapes. `mcdissect --help` lists every flag with an example.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/mcdissect/mcdissect/internal/memory"
	"github.com/mcdissect/mcdissect/internal/profile"
	"github.com/mcdissect/mcdissect/internal/version"
	_ "github.com/mcdissect/mcdissect/protocols/all" // every protocol dissected
	"github.com/mcdissect/mcdissect/protocols/prefs"
)

// Exit statuses, as tshark uses them: 0 success, 1 bad arguments, 2 a
// failure while reading or writing.
const (
	exitOK    = 0
	exitUsage = 1
	exitFail  = 2
)

func main() {
	memory.Init(profile.HeapAsked(os.Args[1:]))
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "decode" {
		return runDecode(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "completion" {
		return runCompletion(args[1:], stdout, stderr) // completion.go
	}
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		if err == errHelp {
			return exitOK
		}
		if err == errVersion {
			version.Write(stdout)
			return exitOK
		}
		if err == prefs.ErrHelp {
			prefs.Print(stdout)
			return exitOK
		}
		fmt.Fprintf(stderr, "mcdissect: %v\n", err)
		return exitUsage
	}
	if cfg.note != "" {
		fmt.Fprintln(stderr, cfg.note)
	}
	cfg.ropts.Colour = cfg.out.ColourFor(stdout)
	return cfg.run(stdin, stdout, stderr)
}
