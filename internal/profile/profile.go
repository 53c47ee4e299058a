// Package profile writes the pprof profiles a run asks for: the CPU's
// over the run (--cpuprofile) and the heap's at its end (--memprofile).
// The heap is sampled only when its profile is asked for (memory.Init).
package profile

import (
	"os"
	"runtime"
	"runtime/pprof"
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
