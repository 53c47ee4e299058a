package render

import (
	"bufio"
	"io"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
)

// Options choose what a renderer shows.
type Options struct {
	Verbose bool // -V: the tree
	Hex     bool // -x: the annotated hex dump
	Redact  bool // --redact: mask fields flagged sensitive
	// For -T fields.
	Fields     []analyze.FieldRef
	Header     bool
	Separator  string
	Aggregator string
	Occurrence byte // 'a' all (default), 'f' first, 'l' last
}

// Renderer writes records to a stream.
type Renderer interface {
	Begin() error
	Record(r *analyze.Record) error
	End() error
}

// New returns the renderer for format "text", "json" or "fields". It
// buffers its output; End flushes it.
func New(format string, w io.Writer, o Options) Renderer {
	bw := bufio.NewWriterSize(w, 64<<10)
	if o.Separator == "" {
		o.Separator = "\t"
	}
	if o.Aggregator == "" {
		o.Aggregator = ","
	}
	switch format {
	case "json":
		return &jsonRenderer{w: bw, o: o}
	case "fields":
		return &fieldsRenderer{w: bw, o: o}
	}
	return &textRenderer{w: bw, o: o}
}

// redacted reports whether n's value must be masked.
func redacted(o *Options, n *dissect.Node) bool {
	return o.Redact && n.Flags&dissect.FlagSensitive != 0
}

const redactedText = "<redacted>"
