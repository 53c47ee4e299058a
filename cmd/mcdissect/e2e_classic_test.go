package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestClassicAgainstTruth: the real Classic session (cserver and two
// ClassiCube clients) read by mcdissect agrees with what the capture's
// truth file says: every payload byte of both streams, both ways, is in a
// dissected PDU (no undissected bytes, no gaps), the players are alice and
// bob with the mppass they were given, they said what they said, and the
// level is the server's 64x32x64 flat world.
func TestClassicAgainstTruth(t *testing.T) {
	var truth struct {
		Server struct {
			Name  string `json:"server_name"`
			MOTD  string `json:"server_motd"`
			World string `json:"world"`
		} `json:"server_reported"`
		Streams []struct {
			Stream int `json:"stream"`
			C2S    int `json:"payload_bytes_client_to_server"`
			S2C    int `json:"payload_bytes_server_to_client"`
		} `json:"tcp_streams"`
		Clients []struct {
			Username string   `json:"username"`
			MPPass   string   `json:"mppass"`
			Actions  []string `json:"actions"`
		} `json:"clients"`
	}
	b, err := os.ReadFile("../../samples/classic-session.truth.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &truth); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := mcd(t, nil, "-r", "../../samples/classic-session.pcap", "-T", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var recs []struct {
		Stream    int    `json:"stream"`
		Direction string `json:"direction"`
		Protocol  string `json:"protocol"`
		Message   string `json:"message"`
		Length    int    `json:"length"`
	}
	if err := json.Unmarshal([]byte(out), &recs); err != nil {
		t.Fatal(err)
	}
	bytes := map[string]int{}
	for _, r := range recs {
		if r.Protocol != "classic" {
			t.Errorf("a %s record in a Classic session: %+v", r.Protocol, r)
		}
		if r.Message == "Undissected bytes" || r.Message == "Missing bytes" {
			t.Errorf("stream %d %s: %s", r.Stream, r.Direction, r.Message)
		}
		bytes[strconv.Itoa(r.Stream)+r.Direction] += r.Length
	}
	for _, s := range truth.Streams {
		k := strconv.Itoa(s.Stream)
		if bytes[k+"c2s"] != s.C2S || bytes[k+"s2c"] != s.S2C {
			t.Errorf("stream %d: %d/%d bytes dissected, the capture has %d/%d", s.Stream, bytes[k+"c2s"], bytes[k+"s2c"], s.C2S, s.S2C)
		}
	}

	fields, _, _ := mcd(t, nil, "-r", "../../samples/classic-session.pcap", "-Y", "classic.packet_id == 0 || classic.packet_id == 0x0d || classic.packet_id == 4",
		"-T", "fields", "-e", "mc.direction", "-e", "classic.username", "-e", "classic.verification_key", "-e", "classic.server_name",
		"-e", "classic.motd", "-e", "classic.message", "-e", "classic.level.size_x", "-e", "classic.level.size_y", "-e", "classic.level.size_z",
		"-e", "classic.level.block_count")
	var users, keys, said []string
	levels := 0
	for _, l := range lines(fields) {
		f := strings.Split(l, "\t")
		if f[0] == "c2s" && f[1] != "" {
			users = append(users, f[1])
			keys = append(keys, f[2])
		}
		if f[0] == "s2c" && f[3] != "" && (f[3] != truth.Server.Name || f[4] != truth.Server.MOTD) {
			t.Errorf("server identification %q / %q, the server was %q / %q", f[3], f[4], truth.Server.Name, truth.Server.MOTD)
		}
		if f[0] == "c2s" && f[5] != "" {
			said = append(said, f[5])
		}
		if f[6] != "" {
			levels++
			// "flat_world:64x32x64:flat"
			if dims := f[6] + "x" + f[7] + "x" + f[8]; !strings.Contains(truth.Server.World, dims) || f[9] != "131072" {
				t.Errorf("level %s with %s blocks, the world is %s", dims, f[9], truth.Server.World)
			}
		}
	}
	if levels != 2 {
		t.Errorf("%d level finalizes, want one per player", levels)
	}
	for i, c := range truth.Clients {
		if i >= len(users) || users[i] != c.Username || keys[i] != c.MPPass {
			t.Errorf("player %d: %v %v, want %s with key %s", i, users, keys, c.Username, c.MPPass)
		}
		for _, a := range c.Actions {
			if line, ok := strings.CutPrefix(a, "chat: "); ok && !contains(said, line) {
				t.Errorf("%s said %q; the messages dissected are %q", c.Username, line, said)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRedactAndExport: --redact hides the heartbeat salt and every
// verification key in every output; --export-objects writes the level.
func TestRedactAndExport(t *testing.T) {
	const hb = "../../samples/handmade-classic-heartbeat.pcap"
	for _, args := range [][]string{{"-V", "-x"}, {"-T", "json"}, {"-T", "fields", "-e", "classic.heartbeat.salt", "-e", "classic.verification_key"}} {
		out, _, code := mcd(t, nil, append([]string{"-r", hb, "--redact"}, args...)...)
		if code != 0 {
			t.Fatal("exit", code)
		}
		if strings.Contains(out, "wo6kVAHjxoJcInKx") {
			t.Errorf("%v: the salt is shown", args)
		}
		if !strings.Contains(out, "redacted") && !strings.Contains(out, "**") {
			t.Errorf("%v: nothing marked as redacted", args)
		}
	}
	out, _, _ := mcd(t, nil, "-r", hb, "-T", "fields", "-e", "classic.username", "-e", "classic.key_valid", "-Y", "classic.username")
	if got := strings.Join(lines(out), "|"); got != "steve\tTrue|mallory\tFalse" {
		t.Errorf("key checks %q, want steve valid and mallory forged", got)
	}
	dir := t.TempDir()
	if _, e, code := mcd(t, nil, "-r", "../../samples/classic-session.pcap", "-q", "--export-objects", "level,"+dir); code != 0 {
		t.Fatal(e)
	}
	// Both players were sent the same level: each distinct file is
	// written once, its blocks and a .png map of them.
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	if maps, _ := filepath.Glob(filepath.Join(dir, "*.png")); len(files) != 1 || len(maps) != 1 {
		t.Fatalf("%d level files and %d maps, want 1 and 1", len(files), len(maps))
	}
	for _, name := range files {
		f, _ := os.Stat(name)
		info := f
		if info.Size() != 64*32*64 && info.Size() != 64*32*64+4 {
			t.Errorf("%s: %d bytes, want the 131072 blocks", f.Name(), info.Size())
		}
	}
}

// TestClassicSalt: --classic-salt checks keys when no heartbeat was
// captured. ClassiCube was given "mppass-alice", which is not md5(salt +
// "alice") for this salt, so the key shows as forged; without the flag
// it is unchecked.
func TestClassicSalt(t *testing.T) {
	const s = "../../samples/classic-session.pcap"
	out, _, _ := mcd(t, nil, "-r", s, "-Y", "classic.username", "-T", "fields", "-e", "classic.username", "-e", "classic.key_valid", "-e", "mc.expert")
	for _, l := range lines(out) {
		if f := strings.Split(l, "\t"); f[1] != "" || !strings.Contains(f[2], "classic.key_unchecked") {
			t.Errorf("without a salt: %q", l)
		}
	}
	out, _, _ = mcd(t, nil, "-r", s, "--classic-salt", "wo6kVAHjxoJcInKx", "-Y", "classic.username", "-T", "fields", "-e", "classic.username", "-e", "classic.key_valid")
	if got := strings.Join(lines(out), "|"); got != "alice\tFalse|bob\tFalse" {
		t.Errorf("with a salt: %q", got)
	}
}
