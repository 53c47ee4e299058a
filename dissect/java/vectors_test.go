package java

import (
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// TestSerializerVectors reads back minecraft-protocol's serialisation of
// every configuration and play packet of the 30 versions it supports, each
// with the least values its definition allows (testdata/nmp-vectors.json.gz,
// written by samples/gen/play/vectors.js): a second implementation's bytes,
// from its own ProtoDef compiler. Each must be named as the vector says,
// read to its last byte, and raise no expert item.
func TestSerializerVectors(t *testing.T) {
	var file struct {
		MinecraftProtocol string `json:"minecraftProtocol"`
		Vectors           []struct {
			Version  string `json:"version"`
			Protocol int    `json:"protocol"`
			State    string `json:"state"`
			Dir      string `json:"dir"`
			ID       int    `json:"id"`
			Name     string `json:"name"`
			Hex      string `json:"hex"`
			Rich     bool   `json:"rich"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(gunzipFile(t, "testdata/nmp-vectors.json.gz"), &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) < 4000 {
		t.Fatalf("%d vectors", len(file.Vectors))
	}
	bad := 0
	for _, v := range file.Vectors {
		ver, err := ForProtocol(v.Protocol)
		if err != nil {
			t.Fatal(err)
		}
		if !ver.Exact {
			t.Errorf("%s: protocol %d has no data of its own", v.Version, v.Protocol)
		}
		b, err := hex.DecodeString(v.Hex)
		if err != nil {
			t.Fatal(err)
		}
		st := Play
		if v.State == "configuration" {
			st = Config
		}
		dir := dissect.DirC2S
		if v.Dir == "toClient" {
			dir = dissect.DirS2C
		}
		var full dissect.PDU
		for _, lite := range []bool{false, true} {
			p := &dissect.PDU{Lite: lite}
			cur := dissect.Begin(p, RegJava.Root(), b, len(b))
			id, idi := varInt(&cur, anonField(dissect.FTInt))
			res := ver.Decode(&cur, st, dir, id, idi)
			cur.Finish()
			if lite {
				if p.Message != full.Message || p.Info != full.Info || len(p.Experts) > 0 {
					bad++
					t.Errorf("%s %s %s %s: Lite %q %q (%d experts), full %q %q", v.Version, v.State, v.Dir, v.Name, p.Message, p.Info, len(p.Experts), full.Message, full.Info)
				}
				continue
			}
			full = *p
			problem := ""
			switch {
			case res.Name != v.Name || int(id) != v.ID:
				problem = "named " + res.Name
			case len(p.Experts) > 0:
				problem = p.Experts[0].Info.Name + ": " + p.Experts[0].Msg
			case dissect.Check(p) != nil:
				problem = dissect.Check(p).Error()
			}
			if problem != "" {
				bad++
				if bad <= 20 {
					t.Errorf("%s %s %s %s (%s): %s", v.Version, v.State, v.Dir, v.Name, v.Hex, problem)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d packets not read back", bad, len(file.Vectors))
	}
	t.Logf("%d packets of minecraft-protocol %s read back", len(file.Vectors), file.MinecraftProtocol)
}

// gunzipFile is the content of the gzip'd file name.
func gunzipFile(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
