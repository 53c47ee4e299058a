// Package glossary prints the -G reports: the registries are the
// documentation. -G fields has tshark's layout: a P line per protocol
// (long name, filter name), then an F line per field (label, filter name,
// type, protocol, base, bit mask, blurb), the blurb being the field's
// explanation for learners; -G protocols tshark's columns (long name, short
// name, filter name); -G experts every expert item (name, severity,
// summary). Types, bases and names: tshark.go. The reports list what is
// registered (dissect.Registries): import the protocols first.
package glossary

import (
	"fmt"
	"io"

	"github.com/mcdissect/mcdissect/dissect"
)

// Reports are the reports Write prints.
var Reports = []string{"fields", "protocols", "experts"}

// FieldNames is a shell pipeline that takes the filter names from the
// fields report's lines (Write), for the completion scripts.
const FieldNames = `cut -f3`

// Write prints the report what, one of Reports.
func Write(w io.Writer, what string) error {
	switch what {
	case "fields":
		for _, r := range dissect.Registries() {
			long, _ := protocolName(r)
			fmt.Fprintf(w, "P\t%s\t%s\n", long, r.Proto)
			for _, f := range r.Fields() {
				if f == r.Root() {
					continue
				}
				name := f.Name
				if f.Keyed {
					name += ".<key>"
				}
				fmt.Fprintf(w, "F\t%s\t%s\t%s\t%s\t%s\t0x0\t%s\n", f.Label, name, ftName(f), r.Proto, baseName(f), f.Desc)
			}
		}
	case "protocols":
		for _, r := range dissect.Registries() {
			long, short := protocolName(r)
			fmt.Fprintf(w, "%s\t%s\t%s\n", long, short, r.Proto)
		}
	case "experts":
		for _, r := range dissect.Registries() {
			for _, e := range r.Experts() {
				fmt.Fprintf(w, "%s\t%s\t%s\n", e.Name, e.Severity, e.Summary)
			}
		}
	default:
		return fmt.Errorf("-G %q: choose fields, protocols or experts", what)
	}
	return nil
}
