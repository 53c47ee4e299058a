package dissect

import (
	"bytes"
	"strings"
	"testing"
)

var (
	tLine   = testReg.Str("dtest.line", "Line")
	tSecret = testReg.Add(Field{Name: "dtest.secret", Label: "Secret", Type: FTString, Sensitive: true})
	tText   = testReg.Str("dtest.text", "Text")
	tValid  = testReg.Bool("dtest.valid", "Valid")
)

// redactPDU: "name=bob&key=S3CRETkey" then a copy of the key in upper
// case, undissected. The line is flagged as a whole (as the heartbeat's
// request line is), the key is a Sensitive field with a text child and a
// generated validity child and a generated secret copy.
func redactPDU(lite bool) *PDU {
	data := []byte("name=bob&key=S3CRETkey;S3CRETKEY")
	p := &PDU{Lite: lite}
	c := Begin(p, testReg.Root(), append([]byte(nil), data...), len(data))
	ln := c.Open(tLine, 22)
	if !lite {
		p.Nodes[ln].Flags |= FlagSensitive
		p.Nodes[ln].Value = B(p.Data[:22])
	}
	c.Field(tText, 8, S("bob"))
	c.Field(tText, 1, S("&"))
	k := c.Open(tSecret, 13)
	c.Field(tText, 13, S("key=S3CRETkey"))
	c.Close()
	if !lite {
		p.Nodes[k].Value = S("S3CRETkey")
		p.AddGenerated(k, tValid, Bool(true), "True: the key checks")
		e := p.AddGenerated(k, tText, S("s3cretkey"), "expected s3cretkey")
		p.Nodes[e].Flags |= FlagSensitive
	}
	c.Close()
	c.Field(tText, 1, S(";"))
	c.Finish() // the upper-case copy: undissected
	p.Info = "login bob with s3cretKEY"
	p.AddExpert(k, tExample, "key S3CRETKEY is forged")
	return p
}

func TestRedact(t *testing.T) {
	p := redactPDU(false)
	if !p.Sensitive() {
		t.Fatal("not sensitive")
	}
	p.Redact()
	if err := Check(p); err != nil {
		t.Fatal(err)
	}
	leak := func(where, s string) {
		if strings.Contains(strings.ToLower(s), "s3cret") {
			t.Errorf("%s shows the secret: %q", where, s)
		}
	}
	leak("data", string(p.Data))
	leak("info", p.Info)
	for _, e := range p.Experts {
		leak("expert", e.Msg)
	}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		leak(n.Name()+" value", n.Value.View())
		leak(n.Name()+" text", n.Text)
	}
	if got := string(p.Data[:9]); got != "name=bob&" {
		t.Errorf("bytes outside the secret masked: %q", got)
	}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		switch {
		case n.Field == tText && n.Value.View() == "bob":
			if n.Flags&FlagSensitive != 0 {
				t.Error("the name, a sibling of the key, is masked")
			}
		case n.Field == tValid:
			if n.Text != "True: the key checks" || n.Flags&FlagSensitive != 0 {
				t.Errorf("the key's validity is masked: %+v", n)
			}
		case n.Field == tSecret, n.Field == tText && n.Offset == 9 && n.Flags&FlagGenerated == 0, n.Field == FieldUndissected:
			if n.Flags&FlagSensitive == 0 || n.Value.View() != RedactedText {
				t.Errorf("%s at %d: flags %b value %q, want masked", n.Name(), n.Offset, n.Flags, n.Value.View())
			}
		}
	}
	if !bytes.Equal(p.Data[9:22], bytes.Repeat([]byte{RedactByte}, 13)) || !bytes.Equal(p.Data[23:], bytes.Repeat([]byte{RedactByte}, 9)) {
		t.Errorf("data %q: the key and its copy not masked", p.Data)
	}
}

// A PDU without secrets is left alone, and so is a Lite one, which keeps
// no tree to find them in.
func TestRedactNothing(t *testing.T) {
	var p PDU
	decodeTest(&p, testMsg, len(testMsg))
	before := string(p.Data)
	p.Redact()
	if string(p.Data) != before || p.Sensitive() {
		t.Error("a PDU without secrets was changed")
	}
	q := redactPDU(true)
	if q.Sensitive() {
		t.Error("a Lite PDU has a tree")
	}
	var r PDU
	data := []byte("abcdef")
	c := Begin(&r, testReg.Root(), data, len(data))
	c.Field(tText, 6, B(data))
	c.Finish()
	r.RedactAll()
	if string(data) != "******" || r.Nodes[1].Flags&FlagSensitive == 0 {
		t.Errorf("RedactAll: %q flags %b", data, r.Nodes[1].Flags)
	}
}
