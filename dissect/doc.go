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
// Two rules every protocol keeps. A value not known yet is no value: the
// field is absent (a label may say why), never a default such as False,
// and a decoder that learns it later holds its PDU (PDU.Pending) or notes
// it for a second pass (Later.Note). Text with Minecraft's formatting
// codes (a MOTD) is the value as sent, codes included, with a generated
// ".plain" child without them (motd.go).
//
// This package imports the standard library only. Protocol packages import it
// and nothing else of mcdissect; capture, reassembly and output live at the
// edges (analyze, reassembly, render, cmd).
package dissect
