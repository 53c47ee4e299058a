// Package render writes records as tshark would: summary lines, the field
// tree (-V), an annotated hex dump (-x), JSON (-T json) and tab-separated
// fields (-T fields). Renderers read the tree only; they never parse bytes.
//
// Every text that came off the wire goes through dissect's escaping, so a
// MOTD full of terminal escape codes prints as \x1b[...], never as codes.
package render
