package dissect

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
)

// masked is t with every range find reports (edges included) as '*'.
func masked(s *Secrets, t string) string {
	b := []byte(t)
	for _, sp := range find(s, readOnly(t), true, nil) {
		fill(b[sp.lo:sp.hi])
	}
	return string(b)
}

func learned(values ...string) *Secrets {
	s := NewSecrets()
	for _, v := range values {
		if !s.add([]byte(v)) {
			panic("refused " + v)
		}
	}
	return s
}

const (
	tSalt = "Hq7ZtR4mWx2PkL9s"                 // 16 bytes: one piece
	tKey  = "12e0eca76803c801baefd988d31398b7" // 32: two
)

func TestSecretsFind(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, tc := range []struct {
		name   string
		values []string
		text   string
		want   string // the text with '*' where a copy is
	}{
		{"whole", []string{tSalt}, "salt " + tSalt + " used", "salt **************** used"},
		{"any case", []string{tSalt}, strings.ToUpper(tSalt), "****************"},
		{"two values, learned one after the other", []string{tSalt, tKey}, tKey + "/" + tSalt, strings.Repeat("*", 32) + "/" + strings.Repeat("*", 16)},
		{"a copy cut at the end", []string{tKey}, "my key is " + tKey[:21], "my key is " + strings.Repeat("*", 21)},
		{"a copy cut at the start", []string{tKey}, tKey[9:] + " (twice)", strings.Repeat("*", 23) + " (twice)"},
		{"a part shorter than MinSecret at the end stays", []string{tKey}, "key " + tKey[:19], "key " + strings.Repeat("*", 16) + tKey[16:19]},
		{"a part inside the text is no copy", []string{tKey}, "a " + tKey[3:12] + " b", "a " + tKey[3:12] + " b"},
		{"%-escaped", []string{tSalt}, "salt=%48%71%37%5a%74%52%34%6D%57%78%32%50%6B%4C%39%73&x", "salt=************************************************&x"},
		{"half %-escaped", []string{tSalt}, "salt=Hq7Z%74R4mWx2PkL9s&", "salt=******************&"},
		{"\\u-escaped", []string{tSalt}, `"H\u0071\u0037ZtR4mWx2PkL9s"`, `"**************************"`},
		{"base64 of a data URI", []string{tSalt}, `data:image/png;base64,` + b64("..."+tSalt+"...") + `"`, ""},
		{"17 bytes", []string{tSalt + "x"}, "(" + tSalt + "x)", "(*****************)"},
		{"35 bytes", []string{tKey + "abc"}, "(" + tKey + "abc)", "(" + strings.Repeat("*", 35) + ")"},
		{"padding is not learned", []string{"  " + tSalt + "   "}, "a " + tSalt + "   b", "a ****************   b"},
		{"too short to learn", []string{"abc"}, "abc abc", "abc abc"},
		{"nothing learned", nil, tSalt, tSalt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := learned(tc.values...)
			got := masked(s, tc.text)
			if tc.want == "" { // base64: the groups encoding the secret
				if strings.Contains(got, b64(tSalt)[4:12]) || !strings.Contains(got, "****") || !strings.HasPrefix(got, "data:image/png;base64,") {
					t.Errorf("got %q", got)
				}
				return
			}
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestTile: a value is cut into contiguous pieces of MinSecret to
// pieceLen bytes.
func TestTile(t *testing.T) {
	for n := MinSecret; n <= 200; n++ {
		c := tile(n, nil)
		if c[0] != 0 || c[len(c)-1] != n {
			t.Fatalf("%d: %v", n, c)
		}
		for i := 1; i < len(c); i++ {
			if l := c[i] - c[i-1]; l < MinSecret || l > pieceLen {
				t.Fatalf("%d: piece of %d in %v", n, l, c)
			}
		}
	}
}

// TestSecretsBound: past its bounds the set refuses values and counts
// them; what it holds is still found.
func TestSecretsBound(t *testing.T) {
	value := func(i int) string { return strings.Repeat(string(rune('a'+i)), 4) + tSalt[:12] } // a piece each
	s := NewSecretsLimit(7)
	for i := range 20 {
		s.add([]byte(value(i)))
	}
	if s.Len() != 7 || s.Refused() != 13 {
		t.Errorf("%d values, %d refused; want 7 (7 pieces) and 13", s.Len(), s.Refused())
	}
	if got := masked(s, value(0)); strings.Trim(got, "*") != "" {
		t.Errorf("a value learned is not found: %q", got)
	}
	if got := masked(s, value(19)); got != value(19) {
		t.Errorf("%q", got)
	}
	// A value of two pieces, one known: one more piece.
	s = NewSecretsLimit(3)
	s.add([]byte(value(0)))
	s.add([]byte(value(0) + value(1)))
	if s.Len() != 2 || len(s.pieces) != 2 || s.Refused() != 0 {
		t.Errorf("%d values, %d pieces, %d refused; want 2, 2, 0", s.Len(), len(s.pieces), s.Refused())
	}
	if !s.add([]byte(value(2))) || s.add([]byte(value(3))) || s.Refused() != 1 {
		t.Errorf("the third piece refused, or the fourth taken: %d refused", s.Refused())
	}
	// A value known already is no new value.
	if !s.add([]byte(value(1))) || s.Refused() != 1 {
		t.Errorf("a known value was refused")
	}
	if big := NewSecrets(); big.limit != MaxPieces {
		t.Errorf("limits %v", big.limit)
	}
}

// TestSecretsMask: copies in every part of a PDU of another protocol.
func TestSecretsMask(t *testing.T) {
	// "n=<salt>;<key>" then a UTF-16 copy of the salt, then a 4-byte
	// number made of the salt's first bytes.
	var data []byte
	data = append(data, "n="+tSalt+";"+tKey...)
	utf16 := len(data)
	for _, c := range []byte(tSalt) {
		data = append(data, 0, c)
	}
	num := len(data)
	data = append(data, tSalt[:4]...)
	p := &PDU{}
	c := Begin(p, testReg.Root(), data, len(data))
	c.Field(tText, 2, S("n="))
	ai := c.Field(tText, 16, B(p.Data[2:18])) // views the bytes
	c.Field(tText, 1, S(";"))
	ki := c.Field(tText, 32, S(strings.ToUpper(tKey)))   // made by the decoder
	ui := c.Field(tText, 2*len(tSalt), S("salt "+tSalt)) // decoded from UTF-16
	ni := c.Field(tValid, 4, Bool(true))                 // a number made of its bytes
	c.Finish()
	p.Nodes[ki].Text = "key " + tKey
	p.Info = "n=" + tSalt + " key " + strings.ToUpper(tKey)
	p.Message = "M"
	p.AddExpert(ai, tExample, "salt "+tSalt+" seen")
	obj := []byte("PNG..." + tSalt + "...")
	p.Objects = append(p.Objects, Object{Kind: "favicon", Name: "f-" + tSalt + ".png", Data: obj})
	_ = num

	s := learned(tSalt, tKey)
	s.Mask(p)
	if err := Check(p); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToLower(string(p.Data)), strings.ToLower(tSalt[:6])) || bytes.Contains(p.Data[utf16:], []byte{0, 'H', 0, 'q'}) {
		t.Errorf("data %q", p.Data)
	}
	if !strings.HasPrefix(string(p.Data), "n=") {
		t.Errorf("bytes that are no copy masked: %q", p.Data)
	}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		for _, x := range []string{n.Value.View(), n.Text, n.Key} {
			if strings.Contains(strings.ToLower(x), strings.ToLower(tSalt[:6])) || strings.Contains(strings.ToLower(x), tKey[:6]) {
				t.Errorf("node %d shows a secret: %q", i, x)
			}
		}
	}
	if got := p.Nodes[ni]; got.Flags&FlagSensitive == 0 || got.Value.View() != RedactedText {
		t.Errorf("the number made of masked bytes: %+v", got)
	}
	if got := p.Nodes[ui].Value.View(); got != "salt "+RedactedText {
		t.Errorf("decoded value %q", got)
	}
	if got := p.Info; got != "n="+RedactedText+" key "+RedactedText {
		t.Errorf("info %q", got)
	}
	if got := p.Experts[0].Msg; got != "salt "+RedactedText+" seen" {
		t.Errorf("expert %q", got)
	}
	if o := p.Objects[0]; bytes.Contains(o.Data, []byte(tSalt)) || !bytes.Contains(obj, []byte(tSalt)) || strings.Contains(o.Name, tSalt) {
		t.Errorf("object %q %q, its old bytes %q (must be left as they were)", o.Name, o.Data, obj)
	}
	// Nothing learned: nothing changes.
	q := redactPDU(false)
	before := string(q.Data)
	NewSecrets().Mask(q)
	if string(q.Data) != before {
		t.Error("an empty set changed a PDU")
	}
}

// TestMaskMarkedOpaque: opaque bytes are masked whole, secret or not;
// other bytes of a PDU without secrets stay.
func TestMaskMarkedOpaque(t *testing.T) {
	data := []byte("abcdefgh")
	p := &PDU{}
	c := Begin(p, testReg.Root(), data, len(data))
	c.Field(tText, 4, B(data[:4]))
	c.Finish() // the rest: undissected
	p.MaskMarked()
	if string(p.Data) != "abcd****" || p.Nodes[2].Field != FieldUndissected || p.Nodes[2].Flags&FlagSensitive == 0 {
		t.Errorf("%q %+v", p.Data, p.Nodes)
	}
}

// FuzzSecretsFind: a value learned and put anywhere in any text is found
// whole; every range is inside the text, sorted, apart from the others.
func FuzzSecretsFind(f *testing.F) {
	f.Add([]byte(tSalt), []byte("salt "), []byte(" end"))
	f.Add([]byte(tKey+"x"), []byte("%41%"), []byte("\\u00"))
	f.Add([]byte("abcd"), []byte("abcabcab"), []byte("cdabcd"))
	f.Fuzz(func(t *testing.T, v, pre, post []byte) {
		if len(v) > 200 || len(pre)+len(post) > 2000 {
			return
		}
		s := NewSecrets()
		s.add(v)
		text := append(append(append([]byte(nil), pre...), v...), post...)
		sp := find(s, text, true, nil)
		for i, r := range sp {
			if r.lo < 0 || r.hi > len(text) || r.lo >= r.hi || i > 0 && sp[i-1].hi >= r.lo {
				t.Fatalf("ranges %v of %d bytes", sp, len(text))
			}
		}
		lo, hi := len(pre), len(pre)+len(v)
		for lo < hi && padding(text[lo]) {
			lo++
		}
		for hi > lo && padding(text[hi-1]) {
			hi--
		}
		if s.Len() == 0 {
			return // too short: not learned
		}
		for _, r := range sp {
			if r.lo <= lo && hi <= r.hi {
				return
			}
		}
		t.Fatalf("%q in %q: ranges %v, want one over [%d, %d)", v, text, sp, lo, hi)
	})
}

// BenchmarkSecretsScan: the bytes of 64 KB of text scanned with a few
// secrets and with the set full.
func BenchmarkSecretsScan(b *testing.B) {
	text := []byte(strings.Repeat("the quick brown fox jumps over the lazy dog 0123456789abcdef. ", 1100))
	for _, n := range []int{2, 100, MaxPieces / 3} {
		s := NewSecrets()
		for i := range n {
			s.add([]byte(strconv.Itoa(i) + "-" + tKey))
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			var sp []span
			for range b.N {
				sp = find(s, text, true, sp[:0])
			}
		})
	}
}

// TestEdgesOf: the prefixes and suffixes made from a packed piece are
// those packed from its bytes.
func TestEdgesOf(t *testing.T) {
	for n := MinSecret; n <= pieceLen; n++ {
		pc := []byte("0123456789abcdefghij"[:n])
		var got []pieceKey
		edgesOf(pack(pc), func(kind uint64, e pieceKey) { got = append(got, e) })
		var want []pieceKey
		for j := MinSecret; j < n; j++ {
			want = append(want, pack(pc[:j]), pack(pc[n-j:]))
		}
		if len(got) != len(want) {
			t.Fatalf("%d: %d edges, want %d", n, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%d: edge %d is %+v, want %+v", n, i, got[i], want[i])
			}
		}
	}
}
