package main

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"net/url"
	"os/exec"
	"strings"
	"testing"
)

// secretForms are the ways a secret can show in output: as text (any
// case), its bytes in hex (contiguous, with colons as -T fields shows
// bytes, with spaces as -x does, any case) and URL-encoded. Each window of
// 8 characters is looked for, so that the piece of a secret in a PDU cut
// short is found too.
func secretForms(secret string) []string {
	var forms []string
	const w = 8
	for i := 0; i+w <= len(secret) || i == 0; i++ {
		s := secret[i:min(i+w, len(secret))]
		h := hex.EncodeToString([]byte(s))
		var colon, space []string
		for k := 0; k+2 <= len(h); k += 2 {
			colon = append(colon, h[k:k+2])
			space = append(space, h[k:k+2])
		}
		forms = append(forms, s, h, strings.Join(colon, ":"), strings.Join(space, " "), url.QueryEscape(s))
	}
	return forms
}

// TestRedactEverywhere runs every output mode with --redact on the
// captures holding Classic secrets (the hand-made heartbeat, the real
// session with its mppass keys and a salt given by --classic-salt, and
// handmade-classic-secrets.pcap: heartbeats and identifications cut
// short, broken by lost segments, cut by the snap length), on one
// back end and on several, and looks for each secret in every form.
func TestRedactEverywhere(t *testing.T) {
	const salt1, salt2 = "wo6kVAHjxoJcInKx", "Zq8xR2mVt4LpW9nK" // samples/handmade: classic.go, secrets.go
	key := func(salt, name string) string {
		s := md5.Sum([]byte(salt + name))
		return hex.EncodeToString(s[:])
	}
	captures := []struct {
		file    string
		extra   []string
		secrets []string
	}{
		{"handmade-classic-heartbeat.pcap", nil, []string{salt1, key(salt1, "steve"), key("guessed", "mallory")}},
		{"classic-session.pcap", []string{"--classic-salt", salt1}, []string{salt1, "mppass-alice", "mppass-bob", key(salt1, "alice"), key(salt1, "bob")}},
		{"handmade-classic-secrets.pcap", nil, []string{salt2, key(salt2, "alex"), key(salt2, "brook"), key(salt2, "casey"), key(salt2, "drew"), key(salt2, "emery")}},
	}
	fields := []string{"-T", "fields", "-e", "frame.number", "-e", "classic.heartbeat.salt", "-e", "classic.verification_key", "-e", "classic.text",
		"-e", "classic.key_expected", "-e", "classic.key_salt", "-e", "classic.heartbeat.line", "-e", "classic.heartbeat.body", "-e", "mc.undissected", "-e", "mc.expert", "-e", "mc.message"}
	modes := [][]string{
		{},
		{"-V"},
		{"-x"},
		{"-V", "-x"},
		{"-T", "json"},
		{"-T", "json", "-x"},
		fields,
		{"-T", "fields", "-e", "frame.number", "-e", "mc.message"},
		{"-Y", "classic", "-V"},
		{"-q", "-z", "mc,stat", "-z", "expert", "-z", "conv,mc"},
		{"-V", "-z", "expert"},
		{"-T", "ek"},
		{"-V", "--explain"},
		{"-q", "-z", "mc,servers", "-z", "mc,rtt"},
	}
	for _, c := range captures {
		var forms []string
		for _, s := range c.secrets {
			forms = append(forms, secretForms(s)...)
		}
		// The captures do hold the secrets: without --redact they show.
		plain := runEnv(t, "", append([]string{"-r", "../../samples/" + c.file, "-V", "-x"}, c.extra...)...)
		if !containsAny(plain, forms) {
			t.Fatalf("%s: no secret shows without --redact: the test looks for the wrong ones", c.file)
		}
		for _, m := range modes {
			for _, procs := range []string{"1", "2"} {
				args := append(append([]string{"-r", "../../samples/" + c.file, "--redact"}, c.extra...), m...)
				out := runEnv(t, procs, args...)
				lower := strings.ToLower(out)
				for _, f := range forms {
					if strings.Contains(lower, strings.ToLower(f)) {
						i := strings.Index(lower, strings.ToLower(f))
						t.Errorf("%s %v (GOMAXPROCS=%s): %q shows: …%s…", c.file, m, procs, f, out[max(0, i-60):min(len(out), i+len(f)+20)])
						break
					}
				}
			}
		}
	}
}

func containsAny(out string, forms []string) bool {
	lower := strings.ToLower(out)
	for _, f := range forms {
		if strings.Contains(lower, strings.ToLower(f)) {
			return true
		}
	}
	return false
}

// runEnv runs the binary with GOMAXPROCS=procs (unset when empty) and
// returns its standard output and error together.
func runEnv(t *testing.T, procs string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	if procs != "" {
		cmd.Env = append(cmd.Environ(), "GOMAXPROCS="+procs)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	return out.String()
}
