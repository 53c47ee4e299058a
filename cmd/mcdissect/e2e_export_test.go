package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportPictures: --export-objects favicon writes each distinct
// favicon once as a PNG that decodes (64×64, as the servers sent them);
// --export-objects level writes each level's blocks and a map that
// decodes to X×Z pixels.
func TestExportPictures(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, code := mcd(t, nil, "-r", "../../samples/slp-status-concurrent.pcap", "-q", "--export-objects", "favicon,"+dir); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	icons, _ := filepath.Glob(filepath.Join(dir, "favicon-*.png"))
	if len(icons) != 1 { // 50 clients, one server, one favicon
		t.Fatalf("%d favicons written: %v", len(icons), icons)
	}
	for _, f := range icons {
		b, _ := os.ReadFile(f)
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if r := img.Bounds(); r.Dx() != 64 || r.Dy() != 64 {
			t.Errorf("%s: %v", f, r)
		}
		if !strings.Contains(f, "127.0.0.1_25571") {
			t.Errorf("%s is not named by its server", f)
		}
	}

	dir = t.TempDir()
	if _, stderr, code := mcd(t, nil, "-r", "../../samples/classic-session.pcap", "-q", "--export-objects", "level,"+dir); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	maps, _ := filepath.Glob(filepath.Join(dir, "level-*.png"))
	if len(maps) == 0 {
		t.Fatal("no level map written")
	}
	for _, f := range maps {
		b, _ := os.ReadFile(f)
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		blocks, err := os.ReadFile(strings.TrimSuffix(f, ".png") + ".bin")
		if err != nil {
			t.Fatal(err)
		}
		// classic-session's levels are 64×32×64.
		if r := img.Bounds(); r.Dx() != 64 || r.Dy() != 64 || len(blocks) != 64*32*64 {
			t.Errorf("%s: %v, %d blocks", f, r, len(blocks))
		}
	}
	if _, _, code := mcd(t, nil, "-r", querySample, "--export-objects", "nope,"+dir); code != 1 {
		t.Errorf("an unknown kind exits %d", code)
	}
}
