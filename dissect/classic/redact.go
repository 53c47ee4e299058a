package classic

import "github.com/mcdissect/mcdissect/dissect"

// The fields that hold a secret, masked by --redact (dissect.PDU.Redact)
// in every node of theirs, whether or not the decoder got to flag it: a
// key or salt cut short by the capture is a failure node of its field.
func init() {
	for _, f := range []*dissect.Field{FieldKey, FieldHBSalt, FieldKeyExpected, FieldKeySalt} {
		f.Sensitive = true
	}
}
