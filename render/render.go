package render

import (
	"bufio"
	"io"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// Options choose what a renderer shows.
type Options struct {
	Verbose bool // -V: the tree
	Hex     bool // -x: the annotated hex dump
	Redact  bool // --redact: mask fields flagged sensitive
	Explain bool // --explain: under each -V tree line, the field's explanation and worked value
	// For -T fields.
	Fields     []record.FieldRef
	Header     bool
	Separator  string
	Aggregator string
	Occurrence byte // 'a' all (default), 'f' first, 'l' last
	// OccurrenceN, when not 0, keeps only the Nth occurrence (-E
	// occurrence=N): 1 is the first, -1 the last, as Wireshark numbers
	// a custom column's occurrences.
	OccurrenceN int
	// Quote, when set ('"' or '\''), wraps each field (and header name) in
	// it, a quote inside a value doubled as in CSV, so that a separator
	// inside a value cannot split it (-E quote=d|s).
	Quote byte
	// For -T html: the page's title (the capture's name).
	Title string
	// Only (-O) shows the tree of these protocols only (frame, ip, ipv6,
	// tcp, udp, query, slp, classic, mc) and every other layer as its
	// one-line header. Empty: -V shows every tree.
	Only []string
	// Colour (--color) writes SGR sequences for protocols, expert
	// severities and Minecraft's formatting codes in the text output.
	Colour bool
	// Time (-t) is the summary line's time column: "r" (relative, the
	// default), "a", "ad", "adoy", "d", "dd", "e", "u" or "ud", as tshark.
	Time string
	// MaxDoc, when not 0, bounds an ek document an Appender makes for a
	// search engine (ship), which drops a line past its own limit: the
	// fields past it are left out, and counted in the document
	// (mc_omitted.mc_omitted_fields). Record (-T ek to a file) ignores it.
	MaxDoc int
}

// Renderer writes records to a stream.
type Renderer interface {
	Begin() error
	Record(r *record.Record) error
	End() error
}

// Appender formats records as bytes, for rendering on several goroutines:
// each has its own Appender (NewAppender; they keep scratch space), and
// one Renderer writes the bytes in order with Raw.
type Appender interface {
	// Append appends r as Record would write it; first says whether r is
	// the first record of the output (JSON puts no comma before it).
	Append(dst []byte, r *record.Record, first bool) []byte
}

// Writer is a Renderer that can also write records formatted elsewhere.
type Writer interface {
	Renderer
	// Raw writes bytes an Appender made for n records.
	Raw(b []byte, n int) error
	// Flush writes out what is buffered, so that bytes for n records can
	// be written past the renderer, in order (after Raw(nil, n)).
	Flush() error
}

// NewAppender returns an Appender for format, with the same options as New.
func NewAppender(format string, o Options) Appender {
	return New(format, io.Discard, o).(Appender)
}

// New returns the renderer for format "text", "json", "ek", "fields",
// "pdml", "psml" or "html". It
// buffers its output; End flushes it.
func New(format string, w io.Writer, o Options) Writer {
	bw := bufio.NewWriterSize(w, 64<<10)
	if o.Separator == "" {
		o.Separator = "\t"
	}
	if o.Aggregator == "" {
		o.Aggregator = ","
	}
	switch format {
	case "json":
		return &jsonRenderer{batchWriter: batchWriter{w: bw}, o: o, clock: stampCache{layout: isoLayout}}
	case "fields":
		return &fieldsRenderer{batchWriter: batchWriter{w: bw}, o: o}
	case "ek":
		return &ekRenderer{batchWriter: batchWriter{w: bw}, o: o, clock: stampCache{layout: isoLayout}}
	case "html":
		return newHTML(bw, o)
	case "pdml":
		return newPDML(bw, o) // pdml.go
	case "psml":
		return &psmlRenderer{batchWriter: batchWriter{w: bw}, o: o}
	}
	return &textRenderer{batchWriter: batchWriter{w: bw}, o: o}
}

// redacted reports whether n's value must be masked.
func redacted(o *Options, n *dissect.Node) bool {
	return o.Redact && n.Flags&dissect.FlagSensitive != 0
}

const redactedText = "<redacted>"
