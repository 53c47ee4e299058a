// Package profile writes the pprof profiles a run asks for: the CPU's
// over the run (--cpuprofile) and the heap's at its end (--memprofile).
// The heap is sampled only when its profile is asked for (memory.Init).
package profile

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
)

// Profiles are a run's profiles. A nil *Profiles writes none.
type Profiles struct {
	cpu *os.File
	mem string
}

// Start starts the CPU profile to the file cpu; mem is the file WriteHeap
// writes. An empty name asks for no profile.
func Start(cpu, mem string) (*Profiles, error) {
	p := &Profiles{mem: mem}
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			return nil, err
		}
		p.cpu = f
		pprof.StartCPUProfile(f)
	}
	return p, nil
}

// WriteHeap writes the heap profile, after a collection; a file that
// cannot be made is no profile.
func (p *Profiles) WriteHeap() {
	if p == nil || p.mem == "" {
		return
	}
	if f, err := os.Create(p.mem); err == nil {
		runtime.GC()
		pprof.WriteHeapProfile(f)
		f.Close()
	}
}

// Stop ends the CPU profile.
func (p *Profiles) Stop() {
	if p == nil || p.cpu == nil {
		return
	}
	pprof.StopCPUProfile()
	p.cpu.Close()
}

// HeapFlag is --memprofile's name. The heap is sampled only when it is
// given, and sampling must be set before the program allocates: the
// arguments are searched for it before they are parsed (HeapAsked).
const HeapFlag = "memprofile"

// HeapAsked tells whether args ask for the heap profile, in either of
// pflag's spellings, before any "--".
func HeapAsked(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--"+HeapFlag || strings.HasPrefix(a, "--"+HeapFlag+"=") {
			return true
		}
	}
	return false
}
