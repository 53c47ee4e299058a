package ship

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// Shipper sends documents to a bulk endpoint; see the package comment.
// Add, Flush and Close may be called from any goroutine.
type Shipper struct {
	cfg    Config
	client *http.Client
	env    []byte // {"host":…,"source":…,
	logf   func(string, ...any)
	st     counters

	mu     sync.Mutex
	cur    lines
	timer  *time.Timer
	closed bool

	packc  chan sealed     // to the packer
	free   chan []byte     // line buffers to reuse
	seq    uint64          // the next batch's sequence number (packer only)
	q      *queue          //
	ctx    context.Context // cancelled when Close gives up
	cancel context.CancelFunc

	closing     chan struct{} // closed when Close starts
	closingOnce sync.Once
	packed      chan struct{} // closed when the packer has queued everything
	sent        chan struct{} // closed when the sender has stopped
}

// sealed is a full batch of lines on its way to compression.
type sealed struct {
	raw  []byte
	docs int
}

// ErrClosed is returned by Add after Close.
var ErrClosed = errors.New("ship: closed")

// New starts a shipper. With a spool, batches an earlier run left there
// are sent first. It does not wait for the engine.
func New(cfg Config) (*Shipper, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	s := &Shipper{
		cfg:     cfg,
		client:  cfg.Client,
		env:     envelope(cfg.Host, cfg.Source),
		logf:    cfg.Logf,
		packc:   make(chan sealed, 2),
		free:    make(chan []byte, 4),
		closing: make(chan struct{}),
		packed:  make(chan struct{}),
		sent:    make(chan struct{}),
	}
	if s.logf == nil {
		s.logf = func(string, ...any) {}
	}
	if s.client == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
		tr.ResponseHeaderTimeout = cfg.Timeout
		tr.DisableCompression = true
		s.client = &http.Client{Transport: tr}
	}
	var sp *spool
	var old []*batch
	if cfg.SpoolDir != "" {
		var err error
		if sp, old, err = openSpool(cfg.SpoolDir, cfg.SpoolBytes); err != nil {
			return nil, err
		}
	}
	s.q = newQueue(cfg.MemoryBytes, sp, &s.st, s.logf)
	s.q.items = old
	s.q.wait = cfg.Wait
	if len(old) > 0 {
		s.seq = old[len(old)-1].seq + 1
		n := 0
		for _, b := range old {
			n += b.docs
		}
		s.logf("ship: %d records from an earlier run wait in %s; sending them first", n, cfg.SpoolDir)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.timer = time.AfterFunc(time.Hour, s.Flush)
	s.timer.Stop()
	go s.pack()
	go s.send()
	return s, nil
}

// Add queues one document: doc is a JSON object on one line (a -T ek
// document, without its index line), id its ID (IDs makes them) and t
// its record's time, which names the index of the day when Config.Index
// is empty. The document gains the members host, source and record_id.
//
// Add copies doc into the batch being filled and hands full batches to
// compression; when compression and the local disk fall behind by two
// batches, it waits for them. It does not wait for the network, unless
// Config.Wait asks it to when memory is full.
func (s *Shipper) Add(id string, t time.Time, doc []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if s.cur.buf == nil {
		s.cur.buf = s.buffer()
	}
	if err := s.cur.add(s.cfg.Index, s.env, id, t, doc); err != nil {
		return err
	}
	s.st.added.Add(1)
	if s.cur.docs == 1 {
		s.timer.Reset(s.cfg.FlushInterval)
	}
	if len(s.cur.buf) >= s.cfg.BatchBytes || s.cur.docs >= s.cfg.BatchDocs {
		s.seal()
	}
	return nil
}

// Flush hands the batch being filled to the sender now; it does not wait
// for the engine. The shipper flushes by itself FlushInterval after a
// batch's first document.
func (s *Shipper) Flush() {
	s.mu.Lock()
	if !s.closed {
		s.seal()
	}
	s.mu.Unlock()
}

// seal hands the current batch to the packer; s.mu is held.
func (s *Shipper) seal() {
	s.timer.Stop()
	if s.cur.docs == 0 {
		return
	}
	s.packc <- sealed{s.cur.buf, s.cur.docs}
	s.cur.buf, s.cur.docs = s.buffer(), 0
}

// buffer returns an empty line buffer, reused when one is free.
func (s *Shipper) buffer() []byte {
	select {
	case b := <-s.free:
		return b[:0]
	default:
		return make([]byte, 0, s.cfg.BatchBytes+s.cfg.BatchBytes/8)
	}
}

// pack compresses sealed batches, numbers them and queues them.
func (s *Shipper) pack() {
	defer close(s.packed)
	for r := range s.packc {
		body := compress(r.raw)
		b := &batch{seq: s.seq, docs: r.docs, body: body, size: int64(len(body)), raw: len(r.raw)}
		s.seq++
		if cap(r.raw) <= 2*s.cfg.BatchBytes {
			select {
			case s.free <- r.raw:
			default:
			}
		}
		s.q.push(b)
	}
}

// Close sends what is left and stops. It waits until everything is
// shipped or ctx is done; with a spool it stops as soon as a try fails
// (the rest waits on disk for the next run). What is still unsent then
// goes to the spool, or without one is counted as unsent. Close may be
// called while another goroutine waits in Add (Config.Wait): a done ctx
// ends that wait.
func (s *Shipper) Close(ctx context.Context) Stats {
	watch := make(chan struct{})
	defer close(watch)
	go func() {
		select {
		case <-ctx.Done():
			s.stop()
		case <-watch:
		}
	}()
	s.mu.Lock()
	if !s.closed {
		s.seal()
		s.closed = true
		close(s.packc)
	}
	s.mu.Unlock()
	<-s.packed
	s.closingOnce.Do(func() { close(s.closing) })
	s.q.close()
	<-s.sent
	s.stop()
	pending := s.q.settle()
	if s.q.sp != nil {
		s.q.sp.close()
	}
	st := s.Stats()
	st.Pending = pending
	return st
}

// stop gives up: the request in flight is cancelled, nothing waits.
func (s *Shipper) stop() {
	s.cancel()
	s.q.stop()
}

// Stats returns the counts so far.
func (s *Shipper) Stats() Stats {
	st := s.st.stats()
	st.URL = endpoint(s.cfg.URL)
	st.SpoolDir = s.cfg.SpoolDir
	st.SpoolBytes = s.cfg.SpoolBytes
	st.MemoryBytes = s.cfg.MemoryBytes
	return st
}

// closingNow reports whether Close has started.
func (s *Shipper) closingNow() bool {
	select {
	case <-s.closing:
		return true
	default:
		return false
	}
}
