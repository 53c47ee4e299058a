package analyze

import (
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// Redaction (--redact) is one mechanism, by value: the run keeps one set
// of the secrets decoders mark (Options.Secrets), learns each record's as
// soon as it is decoded, and masks every copy of every secret learned so
// far in each record as it leaves the back end, the one way records reach
// the sink (release). A record held back (behind a request waiting for
// its response) leaves after the records decoded while it waited, so a
// secret learned late, a salt after the key it checks, is masked in it
// too; a record that left before its secret was learned keeps it, but in
// a two-pass run (-2), whose second pass starts with the first's set.

// redactDefaults makes the set, and decodes with trees: secrets are
// learned from them.
func (o *Options) redactDefaults() {
	if !o.Redact {
		return
	}
	o.Lite = false
	if o.Secrets == nil {
		o.Secrets = dissect.NewSecrets()
	}
}

// learn adds the secrets of r, just decoded, to the run's set.
func (a *backEnd) learn(r *record.Record) {
	a.opts.Secrets.Learn(&r.PDU)
}

// redact masks r as it leaves. The first record whose secret the set
// refused says so (mc.redact.full); Stats counts them all.
func (a *backEnd) redact(r *record.Record) {
	if r.Redact(a.opts.Secrets) == 0 {
		return
	}
	a.secretsRefused++
	if a.secretsRefused == 1 && len(r.PDU.Nodes) > 0 {
		r.PDU.AddExpert(0, record.ExpertSecretsFull, "frame "+strconv.FormatUint(r.Frame, 10)+": --redact learned "+strconv.Itoa(a.opts.Secrets.Len())+" secrets, its bound: this record's are masked in it, but their copies in other records are not (and so for every record after it whose secret is new)")
	}
}
