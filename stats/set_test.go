package stats

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/record"
)

// TestSet: frames go to the statistics that read frames, records to
// those that read records; Needs is what they read together; the tables
// are printed in the order given; a spec no statistic has is refused.
func TestSet(t *testing.T) {
	var zero Set
	if zero.OnFrame() != nil || zero.Needs() != (record.Needs{}) {
		t.Error("the zero Set reads something")
	}
	ss, err := NewSet([]string{"mc,stat", "conv,udp"})
	if err != nil {
		t.Fatal(err)
	}
	if n := ss.Needs(); n.Trees || n.Layers != netlayers.All {
		t.Errorf("mc,stat and conv,udp need %+v", n)
	}
	src, dst := netip.MustParseAddrPort("10.0.0.1:50000"), netip.MustParseAddrPort("10.0.0.2:25565")
	on := ss.OnFrame()
	if on == nil {
		t.Fatal("conv,udp reads frames: OnFrame is nil")
	}
	on(record.FrameInfo{Frame: 1, Time: time.Unix(1, 0), Len: 60, CapLen: 60, Transport: 17, Src: src, Dst: dst})
	ss.Record(&record.Record{Kind: record.KindPDU, Frame: 1, Time: time.Unix(1, 0), Src: src, Dst: dst, Stream: -1, Proto: "query"})
	var b strings.Builder
	ss.Print(&b)
	out := b.String()
	stat, conv := strings.Index(out, "query"), strings.Index(out, "UDP Conversations")
	if stat < 0 || conv < 0 || stat > conv || !strings.Contains(out[conv:], "10.0.0.1:50000") {
		t.Errorf("the tables, mc,stat's then conv,udp's, each with what it was given:\n%s", out)
	}
	if ss, _ := NewSet([]string{"expert"}); !ss.Needs().Trees || ss.OnFrame() != nil {
		t.Error("expert reads trees and no frame")
	}
	if ss, _ := NewSet([]string{"conv,tcp", "endpoints,udp", "io,phs"}); ss.Needs() != (record.Needs{}) || ss.OnFrame() == nil {
		t.Errorf("statistics of frames read %+v of records", ss.Needs())
	}
	if _, err := NewSet([]string{"mc,stat", "nope"}); err == nil || !strings.Contains(err.Error(), `-z "nope": unknown statistic`) {
		t.Errorf("nope: %v", err)
	}
}
