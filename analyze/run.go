package analyze

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/capture"
)

// Stopper is implemented by sources that can be told to end: a blocked
// Next then returns io.EOF promptly. Run stops its source when the
// analyzer stops before the input ends (-c reached, an output error).
type Stopper interface{ Stop() }

// Run feeds every packet of src to a and finishes it. A capture file that
// ends in the middle of a packet record is not an error: what came before
// is dissected, and the returned warning says where the file was cut.
//
// With Options.FlushEvery, src is read on a goroutine of its own and the
// analyzer is flushed that often (see Flush): records reach the output
// while the input waits for its next packet.
func Run(src Source, a *Analyzer) (warning error, err error) {
	if a.opts.FlushEvery > 0 {
		return runFlushing(src, a)
	}
	var readErr error
	for {
		p, rerr := src.Next()
		if rerr != nil {
			warning, readErr = readWarning(rerr, a.frame)
			break
		}
		if perr := a.Packet(p.Data, p.Info, p.LinkType); perr != nil {
			break
		}
	}
	err = a.Finish()
	if readErr != nil {
		err = readErr
	}
	return warning, err
}

// readWarning is what a read error means for the run: nothing at the end
// of the input, a warning for a capture file cut short or damaged (what
// came before is dissected), and an error for anything else (a live
// capture that fails), which the run returns after dissecting what came
// before.
func readWarning(rerr error, frame uint64) (warning, fatal error) {
	switch {
	case rerr == io.EOF:
		return nil, nil
	case errors.Is(rerr, io.ErrUnexpectedEOF):
		return fmt.Errorf("the capture file is cut short in the middle of the packet after frame %d; dissected up to there", frame), nil
	case errors.Is(rerr, capture.ErrCut):
		return fmt.Errorf("the capture file is damaged after frame %d (%v); dissected up to there", frame, rerr), nil
	}
	return nil, rerr
}

// feed carries packets, copied, from the goroutine that reads the source
// to the front end: a queue the reader appends to and the front end takes
// whole, so that a burst costs a lock per packet, not a hand-off.
type feed struct {
	mu   sync.Mutex
	q    feedQueue
	err  error         // Next's error: the reader has ended
	wake chan struct{} // the queue has packets, or err is set (capacity 1)
	room chan struct{} // the front end took the queue (capacity 1)
	quit chan struct{} // the front end stopped reading
	done chan struct{} // the reader has returned
}

type feedQueue struct {
	pkts []feedPacket
	data []byte
}

type feedPacket struct {
	off, n int
	ci     gopacket.CaptureInfo
	link   layers.LinkType
}

// The reader waits when this much is queued: the front end is behind.
const (
	maxFeedBytes   = 4 << 20
	maxFeedPackets = 8192
)

func (f *feed) read(src Source) {
	defer close(f.done)
	for {
		p, err := src.Next()
		f.mu.Lock()
		if err != nil {
			f.err = err
		} else {
			f.q.pkts = append(f.q.pkts, feedPacket{off: len(f.q.data), n: len(p.Data), ci: p.Info, link: p.LinkType})
			f.q.data = append(f.q.data, p.Data...)
		}
		full := len(f.q.data) >= maxFeedBytes || len(f.q.pkts) >= maxFeedPackets
		f.mu.Unlock()
		select {
		case f.wake <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
		for full {
			select {
			case <-f.room:
			case <-f.quit:
				return
			}
			f.mu.Lock()
			full = len(f.q.data) >= maxFeedBytes || len(f.q.pkts) >= maxFeedPackets
			f.mu.Unlock()
		}
	}
}

// take swaps the queue for spare and returns it with the reader's error.
func (f *feed) take(spare feedQueue) (feedQueue, error) {
	f.mu.Lock()
	q, err := f.q, f.err
	f.q = feedQueue{pkts: spare.pkts[:0], data: spare.data[:0]}
	f.mu.Unlock()
	select {
	case f.room <- struct{}{}:
	default:
	}
	return q, err
}

// runFlushing is Run with Options.FlushEvery.
func runFlushing(src Source, a *Analyzer) (warning error, err error) {
	f := &feed{wake: make(chan struct{}, 1), room: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go f.read(src)
	tick := time.NewTicker(a.opts.FlushEvery)
	defer tick.Stop()
	var spare feedQueue
	last := time.Now() // when a packet was last read
	ended := false     // the source ended
	var readErr error
	for {
		flush := a.opts.FlushEager
		select {
		case <-f.wake:
		case <-tick.C:
			flush = true
		case <-a.Done():
		}
		q, rerr := f.take(spare)
		stopped := false
		for _, p := range q.pkts {
			if a.Packet(q.data[p.off:p.off+p.n:p.off+p.n], p.ci, p.link) != nil {
				stopped = true
				break
			}
		}
		if len(q.pkts) > 0 {
			last = time.Now()
		}
		spare = q
		if stopped || a.failed() != nil {
			break
		}
		if rerr != nil {
			warning, readErr = readWarning(rerr, a.frame)
			ended = true
			break
		}
		if flush && a.Flush(time.Since(last)) != nil {
			break
		}
	}
	if !ended {
		close(f.quit)
		if s, ok := src.(Stopper); ok {
			// Its Next returns promptly: wait for the reader, so that
			// nothing reads (or writes -w) after Run returns.
			s.Stop()
			<-f.done
		}
	}
	err = a.Finish()
	if readErr != nil {
		err = readErr
	}
	return warning, err
}
