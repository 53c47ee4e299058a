package ship

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"
)

// A batch is bulk lines sealed for sending: an action line and a document
// per record, gzipped as the request's body.
type batch struct {
	seq  uint64 // orders batches, in this run and in the spool's
	docs int
	body []byte // the gzipped bulk lines; nil while the batch is on disk only
	size int64  // len(body), also while on disk
	raw  int    // the bulk lines' length, before compression
	path string // its spool file, "" while the batch is in memory only
	// replay marks a batch an earlier run left in the spool.
	replay bool
	// sending marks the batch the sender holds: it is neither spilled
	// nor dropped under it.
	sending bool
}

// lines builds the bulk lines of one batch.
type lines struct {
	buf  []byte
	docs int
	// the index name of the last day seen, with its day number
	day   int64
	index []byte
}

// errDoc is returned for a document that is not one JSON object on one line.
var errDoc = errors.New("ship: a document is one JSON object on one line")

// add appends a record's action line and its document, the document
// starting with the envelope members (host, source, record_id).
func (l *lines) add(index string, envelope []byte, id string, t time.Time, doc []byte) error {
	doc = bytes.TrimRight(doc, "\n")
	if len(doc) < 2 || doc[0] != '{' || doc[len(doc)-1] != '}' || bytes.IndexByte(doc, '\n') >= 0 {
		return errDoc
	}
	l.buf = append(l.buf, `{"create":{"_index":"`...)
	if index != "" {
		l.buf = appendJSONEscaped(l.buf, index)
	} else {
		l.buf = append(l.buf, l.daily(t)...)
	}
	l.buf = append(l.buf, `","_id":"`...)
	l.buf = appendJSONEscaped(l.buf, id)
	l.buf = append(l.buf, "\"}}\n"...)
	l.buf = append(l.buf, envelope...)
	l.buf = append(l.buf, `"record_id":"`...)
	l.buf = appendJSONEscaped(l.buf, id)
	l.buf = append(l.buf, '"')
	if rest := bytes.TrimLeft(doc[1:], " \t\r"); rest[0] != '}' {
		l.buf = append(l.buf, ',')
	}
	l.buf = append(l.buf, doc[1:]...)
	l.buf = append(l.buf, '\n')
	l.docs++
	return nil
}

// daily is tshark's index name for t's day (UTC): packets-2026-11-22.
func (l *lines) daily(t time.Time) []byte {
	t = t.UTC()
	d := t.Unix() / 86400
	if t.Unix() < 0 && t.Unix()%86400 != 0 {
		d--
	}
	if l.index == nil || d != l.day {
		l.day = d
		l.index = t.AppendFormat(append(l.index[:0], "packets-"...), "2006-01-02")
	}
	return l.index
}

// envelope is the start of every document: {"host":…,"source":…,
func envelope(host, source string) []byte {
	b := []byte(`{"host":"`)
	b = appendJSONEscaped(b, host)
	b = append(b, `","source":"`...)
	b = appendJSONEscaped(b, source)
	return append(b, `",`...)
}

// gzips keeps gzip writers: each holds about 800 KB of state.
var gzips = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// compress gzips bulk lines at the fastest level (see the package comment).
func compress(raw []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(raw)/6 + 64)
	w := gzips.Get().(*gzip.Writer)
	w.Reset(&out)
	w.Write(raw) // a bytes.Buffer does not fail
	w.Close()
	gzips.Put(w)
	return out.Bytes()
}

// decompress reads a batch's body back, for a retry of some of its
// documents or to check a spool file; max bounds what it inflates.
func decompress(body []byte, max int64) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("inflates past %d bytes", max)
	}
	return b, nil
}

// pairs splits bulk lines into records: each an action line and its
// document, newline included.
func pairs(raw []byte) [][]byte {
	var out [][]byte
	for len(raw) > 0 {
		i := bytes.IndexByte(raw, '\n')
		if i < 0 {
			return append(out, raw)
		}
		j := bytes.IndexByte(raw[i+1:], '\n')
		if j < 0 {
			return append(out, raw)
		}
		n := i + 1 + j + 1
		out = append(out, raw[:n:n])
		raw = raw[n:]
	}
	return out
}

// appendJSONEscaped appends s escaped for a JSON string, without quotes.
func appendJSONEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			b = append(b, c)
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
			continue
		}
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
		i++
	}
	return b
}

const hexDigits = "0123456789abcdef"
