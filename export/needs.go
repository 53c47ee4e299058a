package export

import "github.com/mcdissect/mcdissect/record"

// Needs is what the exporter reads of a record: the objects a PDU's
// decoding attaches, which a Lite decoding does not.
func (e *Exporter) Needs() record.Needs { return record.Needs{Trees: true} }
