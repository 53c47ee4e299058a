// Package render writes records as tshark would: summary lines, the field
// tree (-V), an annotated hex dump (-x), JSON (-T json, ek), tab-separated
// fields (-T fields, with the packet list's columns, columns.go), tshark's
// XML (-T pdml, psml) and the page (-T html, whose filter box runs -Y's
// language, html_filter.js, and whose conversation view draws the
// exchanges stats.Exchanges works out, html_follow.js). Renderers read
// the tree only; they never parse bytes.
//
// Every text that came off the wire goes through dissect's escaping, so a
// MOTD full of terminal escape codes prints as \x1b[...], never as codes.
package render
