package main

import (
	"io"
	"net/netip"
	"slices"
	"sort"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/filter"
)

// A statistic that reads records does not need them in order: on two
// cores each shard of the back end (analyze.Sink) counts the records it
// shows into a state of its own (fork), and at the end the states are
// merged (merge) into what one back end, adding every record in order,
// would have counted. Rows remember the Seq of their first record (and of
// the records that set what a later record overwrites), so the merge puts
// them in the order of first appearance and keeps the last value set.
//
// The merge is exact for any split of the records, with three limits that
// the split the back end makes (shard 1 decodes Classic, shard 0 the
// rest) never meets, and which TestStatShardPreconditions checks:
//   - a table's bound (conv,mc's 500 rows, the census's and mc,rtt's
//     16384 servers): a shard past it counts its newcomers as "others"
//     without knowing whether the other shard's rows push them out of
//     the table; exact when a row's records all come from one shard:
//     conv,mc's rows are per protocol, mc,rtt's are Query's and SLP's.
//     The census's row of an address with both Classic and another
//     protocol, in a capture of more than 16384 servers, is the exception.
//   - samples (players online, response times) past maxSamples values are
//     subsampled by their order: exact when one shard adds them all (they
//     come from SLP and Query fields).
//   - a census row's mods past maxModNames: the same (SLP and Query).
type mergeStat interface {
	stat
	// fork returns an empty state of the same statistic, for one shard.
	fork() stat
	// merge sets the (empty) statistic to the merge of parts, forks of
	// it that counted disjoint sets of records.
	merge(parts []stat)
}

// statSink counts each record a shard shows into that shard's states of
// the statistics (mergeStat.fork), and is otherwise the outSink it wraps.
type statSink struct {
	*outSink
	parts [2][]stat
}

func (s *statSink) Accept(w int, r *analyze.Record) (bool, error) {
	show, err := s.outSink.Accept(w, r)
	if show {
		for _, st := range s.parts[w] {
			st.add(r)
		}
	}
	return show, err
}

// shardStats forks every statistic of stats for each shard and returns
// the sink that feeds them, and the merge to run at the end.
func shardStats(sk *outSink, stats []stat) (*statSink, func()) {
	ss := &statSink{outSink: sk}
	for _, st := range stats {
		m := st.(mergeStat)
		for w := range ss.parts {
			ss.parts[w] = append(ss.parts[w], m.fork())
		}
	}
	return ss, func() {
		for i, st := range stats {
			st.(mergeStat).merge([]stat{ss.parts[0][i], ss.parts[1][i]})
		}
	}
}

// origin orders merged rows: the Seq of the row's first record, then the
// row's index in its shard's table (one record may make several rows, in
// its order). Two shards never share a record, so never an origin.
type origin struct {
	seq uint64
	idx int
}

func (o origin) less(p origin) bool { return o.seq < p.seq || o.seq == p.seq && o.idx < p.idx }

// mergeRows merges the shards' tables: rows of one key are folded into
// one (fold adds from into into), and the rows are ordered by first
// appearance.
func mergeRows[K comparable, R any](parts [][]R, key func(*R) K, first func(*R) uint64, fold func(into, from *R)) []R {
	idx := map[K]int{}
	var out []R
	var ord []origin
	for _, rows := range parts {
		for i := range rows {
			r := &rows[i]
			o := origin{first(r), i}
			if j, ok := idx[key(r)]; ok {
				fold(&out[j], r)
				if o.less(ord[j]) {
					ord[j] = o
				}
				continue
			}
			idx[key(r)] = len(out)
			out = append(out, *r)
			ord = append(ord, o)
		}
	}
	perm := make([]int, len(out))
	for i := range perm {
		perm[i] = i
	}
	sort.Slice(perm, func(a, b int) bool { return ord[perm[a]].less(ord[perm[b]]) })
	sorted := make([]R, len(out))
	for i, j := range perm {
		sorted[i] = out[j]
	}
	return sorted
}

// later reports whether a value set at b (a Seq plus one, 0: never)
// replaces one set at a.
func later(a, b uint64) bool { return b > a }

func (s *msgStat) fork() stat { return &msgStat{idx: map[[2]string]int{}} }

func (s *msgStat) merge(parts []stat) {
	var tabs [][]msgRow
	for _, p := range parts {
		tabs = append(tabs, p.(*msgStat).rows)
	}
	s.rows = mergeRows(tabs, func(r *msgRow) [2]string { return [2]string{r.proto, r.msg} },
		func(r *msgRow) uint64 { return r.at },
		func(into, from *msgRow) {
			into.n += from.n
			into.bytes += from.bytes
			into.at = min(into.at, from.at)
		})
	clear(s.idx)
	for i, r := range s.rows {
		s.idx[[2]string{r.proto, r.msg}] = i
	}
}

func (s *expertStat) fork() stat { return &expertStat{idx: map[*dissect.ExpertInfo]int{}} }

func (s *expertStat) merge(parts []stat) {
	var tabs [][]expertRow
	for _, p := range parts {
		tabs = append(tabs, p.(*expertStat).rows)
	}
	s.rows = mergeRows(tabs, func(r *expertRow) *dissect.ExpertInfo { return r.info },
		func(r *expertRow) uint64 { return r.at },
		func(into, from *expertRow) {
			into.n += from.n
			if from.at < into.at {
				into.first, into.frame, into.at = from.first, from.frame, from.at
			}
		})
	clear(s.idx)
	for i, r := range s.rows {
		s.idx[r.info] = i
	}
}

func (s *convStat) fork() stat { return &convStat{idx: map[convKey]int{}, max: s.max} }

// fold adds o's records to r's: first and last are those of the earliest
// and latest records.
func (r *convRow) fold(o *convRow) {
	if !o.seen && o.c2s+o.s2c == 0 {
		return
	}
	if !r.seen && r.c2s+r.s2c == 0 {
		k := r.k
		*r = *o
		r.k = k
		return
	}
	if o.firstAt < r.firstAt {
		r.first, r.firstAt = o.first, o.firstAt
	}
	if o.lastAt > r.lastAt {
		r.last, r.lastAt = o.last, o.lastAt
	}
	r.c2s += o.c2s
	r.s2c += o.s2c
	r.c2sBytes += o.c2sBytes
	r.s2cBytes += o.s2cBytes
	r.seen = r.seen || o.seen
}

func (s *convStat) merge(parts []stat) {
	var tabs [][]convRow
	for _, p := range parts {
		tabs = append(tabs, p.(*convStat).rows)
	}
	rows := mergeRows(tabs, func(r *convRow) convKey { return r.k },
		func(r *convRow) uint64 { return r.firstAt },
		func(into, from *convRow) { into.fold(from) })
	// The first maxRows conversations to appear keep their rows; the rest
	// join the shards' others.
	s.others = convRow{}
	for _, p := range parts {
		s.others.fold(&p.(*convStat).others)
	}
	if n := s.maxRows(); len(rows) > n {
		for i := n; i < len(rows); i++ {
			o := rows[i]
			o.k, o.seen = convKey{}, true
			s.others.fold(&o)
		}
		rows = rows[:n]
	}
	s.rows = rows
	clear(s.idx)
	for i, r := range s.rows {
		s.idx[r.k] = i
	}
}

func (s *serversStat) fork() stat { return newServersStat() }

func (s *serversStat) merge(parts []stat) {
	var tabs [][]*serverRow
	for _, p := range parts {
		ps := p.(*serversStat)
		tabs = append(tabs, ps.rows)
		s.others += ps.others
	}
	rows := mergeRows(tabs, func(r **serverRow) netip.AddrPort { return (*r).addr },
		func(r **serverRow) uint64 { return (*r).firstAt },
		func(into, from **serverRow) { (*into).fold(*from) })
	if len(rows) > maxServers {
		for _, r := range rows[maxServers:] {
			s.others += r.pdus
		}
		rows = rows[:maxServers]
	}
	s.rows = rows
	clear(s.idx)
	for i, r := range s.rows {
		s.idx[r.addr] = i
	}
}

// fold adds o's records to r's census row.
func (r *serverRow) fold(o *serverRow) {
	if o.firstAt < r.firstAt {
		r.first, r.firstAt = o.first, o.firstAt
	}
	if o.lastAt > r.lastAt {
		r.last, r.lastAt = o.last, o.lastAt
	}
	r.pdus += o.pdus
	r.protos |= o.protos
	r.favicon = r.favicon || o.favicon
	if later(r.motdAt, o.motdAt) {
		r.motd, r.motdAt = o.motd, o.motdAt
	}
	if later(r.versionAt, o.versionAt) {
		r.version, r.versionAt = o.version, o.versionAt
	}
	if later(r.protocolAt, o.protocolAt) {
		r.protocol, r.protocolAt = o.protocol, o.protocolAt
	}
	if later(r.maxAt, o.maxAt) {
		r.max, r.hasMax, r.maxAt = o.max, o.hasMax, o.maxAt
	}
	r.online.merge(&o.online)
	r.mergeMods(o)
	// Clients: only how many, and whether past the bound, is shown.
	for c := range o.clients {
		r.clients[c] = struct{}{}
	}
	r.clientsOverCap = r.clientsOverCap || o.clientsOverCap || len(r.clients) > maxClientsKept
	for c := range r.clients {
		if len(r.clients) <= maxClientsKept {
			break
		}
		delete(r.clients, c)
	}
}

// mergeMods: the mods of both rows in order of first appearance. Exact
// while the two lists together name no more than maxModNames (or one is
// empty); past that, which names a row keeps and counts depends on the
// order of every record (addMod), and the merge keeps the earliest names
// and counts each once.
func (r *serverRow) mergeMods(o *serverRow) {
	if o.modCount == 0 {
		return
	}
	if r.modCount == 0 {
		r.mods, r.modAt, r.modCount = o.mods, o.modAt, o.modCount
		return
	}
	type mod struct {
		name string
		at   uint64
	}
	var all []mod
	for i, m := range r.mods {
		all = append(all, mod{m, r.modAt[i]})
	}
	extra := 0
	for i, m := range o.mods {
		if j := slices.Index(r.mods, m); j >= 0 {
			all[j].at = min(all[j].at, o.modAt[i])
			continue
		}
		all = append(all, mod{m, o.modAt[i]})
		extra++
	}
	slices.SortStableFunc(all, func(a, b mod) int {
		switch {
		case a.at < b.at:
			return -1
		case a.at > b.at:
			return 1
		}
		return 0
	})
	count := r.modCount + extra + (o.modCount - len(o.mods))
	all = all[:min(len(all), maxModNames)]
	r.mods, r.modAt = r.mods[:0], r.modAt[:0]
	for _, m := range all {
		r.mods = append(r.mods, m.name)
		r.modAt = append(r.modAt, m.at)
	}
	r.modCount = count
}

// merge adds o's observations. Exact while both together keep every value
// (no more than maxSamples): the quantiles sort them, min, max and the
// count add up. Past that, which values a subsample keeps depends on their
// order: o's kept values are added as observations, after s's.
func (s *samples) merge(o *samples) {
	switch {
	case o.n == 0:
		return
	case s.n == 0:
		*s = *o
		s.vals = slices.Clone(o.vals)
		return
	}
	if s.n+o.n <= maxSamples {
		s.vals = append(s.vals, o.vals...)
		s.n += o.n
		s.lo, s.hi = min(s.lo, o.lo), max(s.hi, o.hi)
		return
	}
	lo, hi, n := min(s.lo, o.lo), max(s.hi, o.hi), s.n+o.n
	for _, v := range o.vals {
		s.add(v)
	}
	s.lo, s.hi, s.n = lo, hi, n
}

func (s *rttStat) fork() stat { return newRTTStat() }

func (s *rttStat) merge(parts []stat) {
	var tabs [][]*rttRow
	for _, p := range parts {
		tabs = append(tabs, p.(*rttStat).rows)
	}
	rows := mergeRows(tabs, func(r **rttRow) rttKey { return (*r).k },
		func(r **rttRow) uint64 { return (*r).at },
		func(into, from **rttRow) {
			(*into).s.merge(&(*from).s)
			(*into).at = min((*into).at, (*from).at)
		})
	if len(rows) > maxServers {
		rows = rows[:maxServers]
	}
	s.rows = rows
	clear(s.idx)
	for i, r := range s.rows {
		s.idx[r.k] = i
	}
}

// fork: a shard's state counts its records against its own filters
// (filter.Filter.Match is not for two goroutines at once); the frames
// are counted on the reading goroutine, into s itself.
func (s *ioStat) fork() stat {
	f := &ioStat{interval: s.interval, specs: s.specs, prec: s.prec}
	for _, sp := range s.specs {
		flt, err := filter.Compile(sp)
		if err != nil {
			panic("io,stat: a filter compiled once fails: " + err.Error())
		}
		f.flts = append(f.flts, flt)
	}
	f.pdus = make([][]ioCell, len(f.flts))
	return f
}

func (s *ioStat) merge(parts []stat) {
	for _, p := range parts {
		ps := p.(*ioStat)
		if s.recFirst.IsZero() {
			s.recFirst = ps.recFirst
		}
		for k, col := range ps.pdus {
			for len(s.pdus[k]) < len(col) {
				s.pdus[k] = append(s.pdus[k], ioCell{})
			}
			for i, c := range col {
				s.pdus[k][i].n += c.n
				s.pdus[k][i].bytes += c.bytes
			}
		}
	}
}

// framesKept is -w -Y's set of frames to save (frameWriter.keep) on one
// shard: a set has no order, so each shard keeps its own and the sets are
// united at the end, before the second pass copies the frames.
type framesKept struct{ w *frameWriter }

func (k *framesKept) add(r *analyze.Record) { k.w.keep(r) }
func (k *framesKept) print(io.Writer)       {}

func (k *framesKept) fork() stat {
	return &framesKept{&frameWriter{filtered: true, frames: map[uint64]struct{}{}}}
}

func (k *framesKept) merge(parts []stat) {
	for _, p := range parts {
		for f := range p.(*framesKept).w.frames {
			k.w.frames[f] = struct{}{}
		}
	}
}
