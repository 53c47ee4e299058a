// Package dissect is the core every mcdissect protocol builds on: a declarative
// field registry (dotted filter names such as "query.session_id", a type, a
// display base, value-name tables), registered expert items with a severity,
// one flat annotated tree per protocol data unit, and a bounds-checked cursor
// with a sticky error that decoders use to walk their bytes.
//
// The design follows Wireshark's hf_/ei_ registries: because every protocol
// produces the same kind of tree, filtering, byte highlighting, JSON export,
// statistics and "Malformed" handling are written once, in the renderers.
//
// This package imports the standard library only. Protocol packages import it
// and nothing else of mcdissect; capture, reassembly and output live at the
// edges (analyze, reassembly, render, cmd).
package dissect
