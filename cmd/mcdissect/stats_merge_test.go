package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/internal/mcgen"
)

// mergeSpecs: every -z statistic that reads records (mergeStat).
var mergeSpecs = []string{"mc,stat", "expert", "conv,mc", "mc,servers", "mc,rtt", "io,stat,0.5,slp,classic,query.type == 9", "io,stat,0,mc.direction == \"s2c\""}

// mergeCapture is a capture's records, in order, and its frames.
type mergeCapture struct {
	name   string
	recs   []*analyze.Record
	frames []analyze.FrameInfo
}

func mergeCaptures(t *testing.T) []mergeCapture {
	t.Helper()
	var gen bytes.Buffer
	if _, err := mcgen.Generate(&gen, mcgen.SmallConfig(11)); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"mcgen-small-11 (every protocol)": gen.Bytes()}
	names, _ := filepath.Glob("../../samples/*.pcap")
	more, _ := filepath.Glob("/work/shared/captures/*.pcap")
	for _, n := range append(names, more...) {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(n)] = b
	}
	var out []mergeCapture
	for name, b := range files {
		src, err := analyze.OpenFile(bytes.NewReader(b))
		if err != nil {
			continue // a sample that is not a capture mcdissect reads
		}
		c := mergeCapture{name: name}
		emit := func(r *analyze.Record) error { c.recs = append(c.recs, r); return nil }
		o := analyze.Options{Keep: true, OnFrame: func(f analyze.FrameInfo) { c.frames = append(c.frames, f) }}
		if _, err := analyze.Run(src, analyze.New(o, emit)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, c)
	}
	return out
}

// mergeSplits: how the records are split between two shards. "shards" is
// the back end's (analyze.protoShard: Classic on shard 1); the others put
// the rows of one key on both shards, or every record on one.
var mergeSplits = []struct {
	name  string
	shard func(r *analyze.Record) int
}{
	{"shards", func(r *analyze.Record) int {
		if r.Proto == "classic" {
			return 1
		}
		return 0
	}},
	{"alternate", func(r *analyze.Record) int { return int(r.Seq() % 2) }},
	{"runs of 7", func(r *analyze.Record) int { return int(r.Seq() / 7 % 2) }},
	{"all on 1", func(r *analyze.Record) int { return 1 }},
}

func printStat(s stat) string {
	var b bytes.Buffer
	s.print(&b)
	return b.String()
}

// serialStat is what one back end counts: every record, in order.
func serialStat(t *testing.T, spec string, c *mergeCapture, tweak func(stat)) stat {
	s, err := newStat(spec)
	if err != nil {
		t.Fatal(err)
	}
	tweak(s)
	feedFrames(s, c)
	for _, r := range c.recs {
		s.add(r)
	}
	return s
}

func feedFrames(s stat, c *mergeCapture) {
	if fs, ok := s.(frameStat); ok {
		for _, f := range c.frames {
			fs.frame(f)
		}
	}
}

// shardedStat counts each record on the shard split chooses, in order on
// each, and merges; drop leaves that shard's state out of the merge.
func shardedStat(t *testing.T, spec string, c *mergeCapture, split func(*analyze.Record) int, tweak func(stat), drop int) (stat, [2]int) {
	s, _ := newStat(spec)
	tweak(s)
	feedFrames(s, c)
	m := s.(mergeStat)
	parts := []stat{m.fork(), m.fork()}
	var n [2]int
	for _, r := range c.recs {
		w := split(r)
		parts[w].add(r)
		n[w]++
	}
	if drop >= 0 {
		parts[drop] = m.fork()
	}
	m.merge(parts)
	return s, n
}

// TestStatMergeEqualsSerial: a statistic counted on two shards apart and
// merged prints what one back end prints, byte for byte, for every split
// of every capture; and leaving one shard's state out shows (the test
// would see a merge that loses a shard).
func TestStatMergeEqualsSerial(t *testing.T) {
	caps := mergeCaptures(t)
	none := func(stat) {}
	for _, spec := range mergeSpecs {
		t.Run(spec, func(t *testing.T) {
			teeth := 0
			for i := range caps {
				c := &caps[i]
				want := printStat(serialStat(t, spec, c, none))
				for _, sp := range mergeSplits {
					got, n := shardedStat(t, spec, c, sp.shard, none, -1)
					if g := printStat(got); g != want {
						t.Errorf("%s, split %s: merged\n%s\nserial\n%s", c.name, sp.name, g, want)
						continue
					}
					if n[0] == 0 || n[1] == 0 {
						continue
					}
					for drop := range 2 {
						lost, _ := shardedStat(t, spec, c, sp.shard, none, drop)
						if printStat(lost) != want {
							teeth++
						}
					}
				}
			}
			if teeth == 0 {
				t.Error("no capture where a shard's state makes a difference: the test tests nothing")
			}
		})
	}
}

// TestStatMergeBounded: past conv,mc's bound the first conversations to
// appear keep their rows and the others are summed, shards or not (rows
// of one protocol come from one shard: the back end's split).
func TestStatMergeBounded(t *testing.T) {
	for _, c := range mergeCaptures(t) {
		for _, max := range []int{1, 3, 7} {
			tweak := func(s stat) { s.(*convStat).max = max }
			want := printStat(serialStat(t, "conv,mc", &c, tweak))
			got, _ := shardedStat(t, "conv,mc", &c, mergeSplits[0].shard, tweak, -1)
			if g := printStat(got); g != want {
				t.Errorf("%s, %d rows: merged\n%s\nserial\n%s", c.name, max, g, want)
			}
		}
	}
}

// TestStatShardPreconditions: what the merge cannot order exactly comes
// from one shard only (stats_merge.go): the records of shard 1 (Classic)
// carry no response time, player count or mod, and a conv,mc row's
// protocol is one shard's.
func TestStatShardPreconditions(t *testing.T) {
	fed := []string{"query.time", "slp.time", "slp.rtt", "slp.status.players.online", "slp.legacy.online", "query.numplayers.value",
		"slp.status.forge.mod.id", "slp.status.modinfo.mod.id", "query.plugin", "query.plugins"}
	classic := 0
	for _, c := range mergeCaptures(t) {
		for _, r := range c.recs {
			if mergeSplits[0].shard(r) != 1 {
				continue
			}
			classic++
			for i := range r.PDU.Nodes {
				if n := r.PDU.Nodes[i].Name(); strings.HasPrefix(n, "query.") || strings.HasPrefix(n, "slp.") {
					for _, f := range fed {
						if n == f {
							t.Errorf("%s: frame %d, a Classic record, has %s", c.name, r.Frame, n)
						}
					}
				}
			}
		}
	}
	if classic == 0 {
		t.Error("no Classic record: the test tests nothing")
	}
}
