package main

import (
	"fmt"
	"io"

	"github.com/mcdissect/mcdissect/dissect"
)

// glossary prints -G reports: the registries are the documentation. -G
// fields has tshark's layout (F, label, filter name, type, protocol,
// blurb): the blurb, last, is the field's explanation for learners.
func glossary(what string, w io.Writer) error {
	switch what {
	case "fields":
		for _, r := range dissect.Registries() {
			for _, f := range r.Fields() {
				name := f.Name
				if f.Keyed {
					name += ".<key>"
				}
				fmt.Fprintf(w, "F\t%s\t%s\t%s\t%s\t%s\n", f.Label, name, f.Type, r.Proto, f.Desc)
			}
		}
	case "protocols":
		for _, r := range dissect.Registries() {
			fmt.Fprintf(w, "%s\t%s\n", r.Long, r.Proto)
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
