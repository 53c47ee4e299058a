package main

import (
	"bytes"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"os/exec"
	"regexp"
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
// short, broken by lost segments, cut by the snap length; and
// handmade-classic-cut.pcap: heartbeats and identifications cut by a gap
// or the connection's end inside the salt or the key, decoded as cut
// PDUs), on one back end and on several, and looks for each secret in
// every form.
func TestRedactEverywhere(t *testing.T) {
	const salt1, salt2 = "wo6kVAHjxoJcInKx", "Zq8xR2mVt4LpW9nK" // samples/handmade: classic.go, secrets.go
	const salt3 = "Hn3pQ7wXk2Lm9RtZ"                            // samples/handmade/classiccut.go
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
		{"handmade-classic-cut.pcap", nil, []string{salt3, key(salt3, "fern"), key(salt3, "gale")}},
	}
	fields := []string{"-T", "fields", "-e", "frame.number", "-e", "classic.heartbeat.salt", "-e", "classic.verification_key", "-e", "classic.text",
		"-e", "classic.key_expected", "-e", "classic.key_salt", "-e", "classic.heartbeat.request_line", "-e", "classic.heartbeat.body", "-e", "mc.undissected", "-e", "mc.expert", "-e", "mc.message"}
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
		{"-T", "html"},
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
		if page := withBase64(runEnv(t, "", "-r", "../../samples/"+c.file, "-T", "html")); !containsAny(page[strings.Index(page, "\n\x00base64\n"):], forms) {
			t.Fatalf("%s: no secret shows in the bytes of -T html without --redact: the test cannot read them", c.file)
		}
		for _, m := range modes {
			for _, procs := range []string{"1", "2"} {
				args := append(append([]string{"-r", "../../samples/" + c.file, "--redact"}, c.extra...), m...)
				out := withBase64(runStatus(t, procs, 0, args...)) // a mode that fails shows nothing, and would pass
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

// base64Value is a JSON string value that may be base64: -T html gives a
// record's bytes so.
var base64Value = regexp.MustCompile(`":"([A-Za-z0-9+/]{8,}={0,2})"`)

// withBase64 appends to out, after a marker line, the bytes of every
// base64 value in it, so that secrets are looked for in them too.
func withBase64(out string) string {
	var b strings.Builder
	b.WriteString(out)
	b.WriteString("\n\x00base64\n")
	for _, m := range base64Value.FindAllStringSubmatch(out, -1) {
		if d, err := base64.StdEncoding.DecodeString(m[1]); err == nil {
			b.Write(d)
			b.WriteByte('\n')
		}
	}
	return b.String()
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

// runStatus is runEnv for a run that must exit with code want.
func runStatus(t *testing.T, procs string, want int, args ...string) string {
	t.Helper()
	out, err := runCmd(procs, args...)
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() != want || err != nil && !ok || err == nil && want != 0 {
		t.Fatalf("%v: %v, want exit code %d\n%s", args, err, want, out)
	}
	return out
}

// runEnv runs the binary with GOMAXPROCS=procs (unset when empty) and
// returns its standard output and error together, whatever its exit code.
func runEnv(t *testing.T, procs string, args ...string) string {
	t.Helper()
	out, err := runCmd(procs, args...)
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return out
}

// runCmd runs the binary with GOMAXPROCS=procs (unset when empty).
func runCmd(procs string, args ...string) (string, error) {
	cmd := exec.Command(binary, args...)
	if procs != "" {
		cmd.Env = append(cmd.Environ(), "GOMAXPROCS="+procs)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}
