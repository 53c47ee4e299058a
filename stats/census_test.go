package stats

import (
	"bytes"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

var (
	censusTest     = dissect.NewRegistry("censustest", "Census test")
	censusJoined   = censusTest.Str("censustest.joined", "Joined")
	censusJoinedID = censusTest.Str("censustest.joined_id", "Joined, UUID")
	censusBrand    = censusTest.Str("censustest.brand", "Brand")
)

func init() {
	censusTest.Roles(map[string]dissect.Role{
		"censustest.joined":    dissect.RolePlayerJoined,
		"censustest.joined_id": dissect.RolePlayerID,
		"censustest.brand":     dissect.RoleBrand,
	})
}

// TestCensusBrandsAndJoined: the census keeps the brand the server said
// last and each brand its clients said once, and a joined player with
// the UUID the same PDU gave.
func TestCensusBrandsAndJoined(t *testing.T) {
	s := newServersStat()
	srv := netip.MustParseAddrPort("10.0.0.1:25565")
	cl := netip.MustParseAddrPort("10.0.0.2:40000")
	t0 := time.Unix(1700000000, 0)
	add := func(dir dissect.Dir, nodes ...any) {
		r := &record.Record{Kind: record.KindPDU, Proto: "censustest", Time: t0, Src: cl, Dst: srv}
		if dir == dissect.DirS2C {
			r.Src, r.Dst = srv, cl
		}
		r.PDU.Dir = dir
		for i := 0; i < len(nodes); i += 2 {
			r.PDU.AddGenerated(-1, nodes[i].(*dissect.Field), dissect.S(nodes[i+1].(string)), "")
		}
		s.Record(r)
	}
	add(dissect.DirC2S, censusBrand, "vanilla")
	add(dissect.DirS2C, censusBrand, "Paper")
	add(dissect.DirC2S, censusBrand, "fabric")
	add(dissect.DirC2S, censusBrand, "vanilla")
	add(dissect.DirS2C, censusBrand, "Velocity -> Paper")
	add(dissect.DirS2C, censusJoined, "Alex", censusJoinedID, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")
	add(dissect.DirS2C, censusJoined, "Alex", censusJoinedID, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")
	add(dissect.DirS2C, censusJoined, "Steve")
	var b bytes.Buffer
	s.Print(&b)
	for _, want := range []string{
		"  Brand:     Velocity -> Paper; clients: vanilla, fabric\n",
		"  Joined:    2: Alex (0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0), Steve\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("census lacks %q:\n%s", want, b.String())
		}
	}
}
