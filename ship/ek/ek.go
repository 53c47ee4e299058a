// Package ek ships records as the -T ek renderer writes them: the
// document line of each record, without its index line, to a
// ship.Shipper, with the record's ID. It is the glue between the pipeline
// and the shipper, which knows nothing of records.
package ek

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/render"
	"github.com/mcdissect/mcdissect/ship"
)

// Output ships records. Record must be called with the records shown, in
// order, from one goroutine at a time (the IDs count the records of each
// frame).
type Output struct {
	s    *ship.Shipper
	opts render.Options
	app  render.Appender
	ids  *ship.IDs
	buf  []byte
}

// New returns an Output shipping to s. o are the renderer's options: the
// ones that change the document are Redact (--redact masks the same
// fields in the shipped documents as in every output) and Fields (-e:
// documents with the named fields only, as tshark -T ek -e).
//
// A document is at most MaxDoc bytes as the engine gets it (o.MaxDoc when
// set), the shipper's envelope included: past it the fields that do not
// fit are left out and counted in the document
// (mc_omitted.mc_omitted_fields), so that the record still reaches the
// engine, which would drop the whole line.
func New(s *ship.Shipper, o render.Options) *Output {
	if o.MaxDoc == 0 {
		o.MaxDoc = MaxDoc
	}
	o.MaxDoc -= s.Envelope()
	return &Output{s: s, opts: o, app: render.NewAppender("ek", o), ids: s.NewIDs()}
}

// MaxDoc is VictoriaLogs' default longest line (-insert.maxLineSizeBytes):
// it skips a longer one, answering the request with success. A record of
// a vanilla Declare Recipes is a document of 600 KB.
const MaxDoc = 256 << 10

// Needs is what the documents read of a record: -T ek's, the trees and
// the layers, whatever the run prints.
func (o *Output) Needs() record.Needs { return render.NeedsOf("ek", o.opts) }

// Record ships r. With Flush, Output is an analyze.Sink; with Needs, an
// output.Reader.
func (o *Output) Record(r *record.Record) error {
	o.buf = o.app.Append(o.buf[:0], r, false)
	doc := o.buf[bytes.IndexByte(o.buf, '\n')+1:] // after the index line
	return o.s.Add(o.ids.Next(r.Frame, r.Time, doc), r.Time, doc)
}

// Flush does nothing: the shipper sends a batch by itself a second after
// its first record (ship.Config.FlushInterval), which a live capture's
// frequent flushes must not cut into tiny requests.
func (o *Output) Flush() error { return nil }

// closeWait is how long Close waits for the engine to take what is left.
const closeWait = 10 * time.Second

// Close closes the shipper, waiting closeWait at most for the engine to
// take what is left (ship.Shipper.Close), and writes its closing line to
// w.
func (o *Output) Close(w io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), closeWait)
	defer cancel()
	fmt.Fprintln(w, o.s.Close(ctx))
}
