// Command mcdissect dissects Minecraft server traffic (Query, Server List
// Ping, Classic) from capture files or live interfaces, with tshark's flags
// and output shapes. `mcdissect --help` lists every flag with an example.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/mcdissect/mcdissect/budget"
	_ "github.com/mcdissect/mcdissect/protocols/all" // every protocol dissected
)

// Exit statuses, as tshark uses them: 0 success, 1 bad arguments, 2 a
// failure while reading or writing.
const (
	exitOK    = 0
	exitUsage = 1
	exitFail  = 2
)

// softMemoryLimit keeps the heap near what the pipeline really holds (a
// few tens of MB whatever the capture's size): without it the collector
// lets the heap grow to twice the live size before it runs. A GOMEMLIMIT
// set by the user wins.
const softMemoryLimit = 80 << 20

// newBudget is a run's memory budget. Unless the user set GOMEMLIMIT, the
// runtime's soft limit follows what it holds, budgetRoom above it and
// never below softMemoryLimit: a budget full of held bytes (a hostile
// capture's connections and levels) leaves the collector room instead of
// making it run without end, while an empty one keeps the heap as small
// as before.
func newBudget() *budget.Budget {
	b := budget.New(0)
	if os.Getenv("GOMEMLIMIT") == "" {
		b.Watch(4<<20, func(used int64) { debug.SetMemoryLimit(max(softMemoryLimit, used+budgetRoom)) })
	}
	return b
}

// budgetRoom is the heap the soft limit leaves above a full budget: the
// records and trees in flight.
const budgetRoom = 64 << 20

// gcPercent: the live heap is small (pooled records, a few connections'
// state) while PDUs and trees are allocated fast, so the default GOGC=100
// collects every few MB. A higher target, capped by the soft limit above,
// collects a few times less often for the same peak. A GOGC set by the
// user wins.
const gcPercent = 400

// liteGCPercent is the target when PDUs are decoded Lite (no trees): little
// is allocated, and a heap let grow to five times its live size only costs
// page faults (a summary of 100 MB: 85 MB resident and 20,000 faults at
// 400, 50 MB and 11,000 at 100, for the same user time).
const liteGCPercent = 100

func main() {
	if !wantsMemProfile(os.Args[1:]) {
		// Go samples allocations for a heap profile by default; its
		// buckets were 1.6 MB of the 1 GB real capture's JSON run, held
		// for nothing unless --memprofile asks for the profile.
		runtime.MemProfileRate = 0
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// wantsMemProfile tells whether args ask for --memprofile, before they
// are parsed: the sampling rate must be set before the program allocates.
func wantsMemProfile(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--"+memProfileFlag || strings.HasPrefix(a, "--"+memProfileFlag+"=") {
			return true
		}
	}
	return false
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
			printVersion(stdout)
			return exitOK
		}
		if err == errPrefsHelp {
			printPrefs(stdout) // habits.go
			return exitOK
		}
		fmt.Fprintf(stderr, "mcdissect: %v\n", err)
		return exitUsage
	}
	if cfg.note != "" {
		fmt.Fprintln(stderr, cfg.note)
	}
	cfg.ropts.Colour = cfg.ropts.Colour || cfg.out.colourOn(stdout) && cfg.format == "text"
	return cfg.run(stdin, stdout, stderr)
}
