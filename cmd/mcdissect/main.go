// Command mcdissect dissects Minecraft server traffic (Query, Server List
// Ping, Classic) from capture files or live interfaces, with tshark's flags
// and output shapes. `mcdissect --help` lists every flag with an example.
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit statuses, as tshark uses them: 0 success, 1 bad arguments, 2 a
// failure while reading or writing.
const (
	exitOK    = 0
	exitUsage = 1
	exitFail  = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "decode" {
		return runDecode(args[1:], stdout, stderr)
	}
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		if err == errHelp {
			return exitOK
		}
		fmt.Fprintf(stderr, "mcdissect: %v\n", err)
		return exitUsage
	}
	return cfg.run(stdin, stdout, stderr)
}
